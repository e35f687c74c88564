import MicroHTTP

/// A server's life (docs/API.md, "Caching"): a server without a journal or a
/// database forgets its tables' versions when it stops, and counts them again
/// from its data file at the next start, so version 7 of one start is not
/// version 7 of the next. Such a server starts a new life at each start, a
/// random id, and every version a client can hold carries it: entity tags
/// (`"k3f9a2c1.7"`), event ids and `since` cursors (`k3f9a2c1.7`). JSON
/// bodies keep their integer `version`s. A server with a journal or a
/// database, whose versions outlive the process, has a lasting life: its
/// tags and ids are the bare versions.
struct ServerLife: Sendable, Equatable {
    /// The life's id (lower-case letters and digits); nil for a lasting life.
    let id: String?

    static let lasting = ServerLife(id: nil)

    /// A new life: 8 random base-36 digits.
    static func fresh() -> ServerLife {
        let low: UInt64 = 78_364_164_096  // 36^7: every id has 8 digits
        return ServerLife(id: String(UInt64.random(in: low..<(low * 36)), radix: 36))
    }

    /// `version` as an entity tag of this life: `"k3f9a2c1.7"`, or `"7"` for a lasting life.
    func tag(_ version: Int) -> String { "\"\(cursor(version))\"" }

    /// `version` as an event id or cursor: `life.version`, or the bare version for a lasting life.
    func cursor(_ version: Int) -> String {
        id.map { "\($0).\(version)" } ?? String(version)
    }

    /// The version a cursor (`Last-Event-ID`, `since`) names. A bare version
    /// is taken as it is; a cursor of another life (or, for a lasting life, a
    /// cursor with a life) names a version this life never had: `Int.max`,
    /// which every stream answers with `reset`. nil when it is not a cursor.
    func version(ofCursor cursor: Substring) -> Int? {
        guard let dot = cursor.lastIndex(of: ".") else { return Int(cursor) }
        guard let version = Int(cursor[cursor.index(after: dot)...]), version >= 0 else { return nil }
        return cursor[..<dot] == id ?? "" ? version : Int.max
    }

    /// `response` with its entity tag of this life: `"7"` becomes `"k3f9a2c1.7"`.
    /// Read and written as bytes, in the response it is given: it runs on
    /// every answer of a table's route.
    func tagging(_ response: consuming HTTPResponse) -> HTTPResponse {
        guard let id, var tag = response.headers["ETag"] else { return response }
        let tagged = tag.withUTF8 { bytes -> String? in
            let quote = bytes.starts(with: "W/".utf8) ? 2 : 0
            guard bytes.count - quote >= 2, bytes[quote] == UInt8(ascii: "\"") else { return nil }
            let life = id.utf8
            return String(unsafeUninitializedCapacity: bytes.count + life.count + 1) { buffer in
                var count = 0
                for byte in bytes[...quote] { buffer[count] = byte; count += 1 }
                for byte in life { buffer[count] = byte; count += 1 }
                buffer[count] = UInt8(ascii: ".")
                count += 1
                for byte in bytes[(quote + 1)...] { buffer[count] = byte; count += 1 }
                return count
            }
        }
        if let tagged { response.headers.set("ETag", tagged) }
        return response
    }

    /// `request` with the tags of its `If-None-Match` and `If-Match` read in
    /// this life: a tag of this life loses its life (`"k3f9a2c1.7"` is `"7"`,
    /// as the handlers compare). Any other tag but `*` — of another life, or
    /// bare, which this life never sends — names nothing, so that no answer is
    /// `304` and no edit is made across lives (an edit's `412` names the tag
    /// sent, as `RouteBuilder` answers it).
    func reading(_ request: consuming HTTPRequest) -> HTTPRequest {
        guard let id else { return request }
        for name in Self.conditions {
            guard let field = request.headers[name], EntityTagList.firstMalformed(in: field) == nil else { continue }
            let prefix = "\"\(id)."
            let tags = EntityTagList(field).tags.map { tag -> Substring in
                let weak = tag.hasPrefix("W/")
                let quoted = weak ? tag.dropFirst(2) : tag
                if quoted.hasPrefix(prefix) { return (weak ? "W/\"" : "\"") + quoted.dropFirst(prefix.count) }
                return tag == "*" ? tag : "\"another-life\""
            }
            request.headers.set(name, tags.joined(separator: ", "))
        }
        return request
    }

    /// The fields whose entity tags `reading` reads.
    private static let conditions = ["If-None-Match", "If-Match"]
}
