import CMicroHTTPD
import Glibc

/// The request header fields the server itself reads before routing — the
/// host, the framing, the content coding and what makes a request plain —
/// found in one pass over libmicrohttpd's list of fields.
///
/// Each `MHD_lookup_connection_value` walks the whole list comparing names
/// without case; a kept answer asked for seven fields that way, a sixth of
/// the instructions our code spends on it (docs/ARCHITECTURE.md, Kept
/// answers). One pass sorts every field by the length of its
/// name and compares only names of a wanted length. As with the lookup, the
/// first field of a name is kept; the pass also notes what a second field of
/// a framing name says (see ``RequestFraming``), and the first field line
/// whose syntax is wrong (``FieldLine``). The values are libmicrohttpd's bytes, which
/// stay where they are until the request completes (they are the ones its
/// lookups return): the first call of the access handler finds them, the
/// last reads them.
struct RequestFields {
    var host: UnsafePointer<CChar>?
    var contentLength: UnsafePointer<CChar>?
    var transferEncoding: UnsafePointer<CChar>?
    var acceptEncoding: UnsafePointer<CChar>?
    var ifNoneMatch: UnsafePointer<CChar>?
    var minVersion: UnsafePointer<CChar>?
    var origin: UnsafePointer<CChar>?
    /// A credential: its request is answered by its route, never a kept answer.
    var authorization: UnsafePointer<CChar>?
    /// Cookies, which may carry a credential (a share link's): as `authorization`.
    var cookie: UnsafePointer<CChar>?
    var contentEncoding: UnsafePointer<CChar>?
    /// A second `Host` field came.
    var hasSecondHost = false
    /// A second `Content-Length` field came whose value is not the first's.
    var hasConflictingContentLength = false
    /// `Transfer-Encoding` fields after the first, which continue its list.
    var moreTransferEncodings: [UnsafePointer<CChar>] = []
    /// A second `Idempotency-Key` field came (draft-ietf-httpapi-idempotency-key-header: one key a request).
    var hasSecondIdempotencyKey = false
    private var hasIdempotencyKey = false
    /// What is wrong with the first malformed field line, if one is.
    var fieldDefect: FieldLine.Defect?
    /// Where the line after the last field noted starts (``FieldLine``).
    private var nextLine: UnsafePointer<CChar>?
    var accept: UnsafePointer<CChar>?

    /// No fields.
    init() {}

    /// The fields of the request on `connection`.
    init(of connection: OpaquePointer) {
        withUnsafeMutablePointer(to: &self) { fields in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { context, _, key, keySize, value, valueSize in
                    if let context, let key, let value {
                        context.assumingMemoryBound(to: RequestFields.self).pointee.note(key, keySize, value, valueSize)
                    }
                    return .YES
                }, fields)
        }
        endFields()
    }

    /// Takes the field `name: value` as the pass over libmicrohttpd's list
    /// does (the framing fuzz harness's way in); both stay where they are,
    /// laid out as libmicrohttpd lays them out (``FieldLine``), while these
    /// fields are read.
    mutating func note(
        name: UnsafePointer<CChar>, nameSize: Int, value: UnsafePointer<CChar>, valueSize: Int
    ) {
        note(name, nameSize, value, valueSize)
    }

    /// After the last field: the empty line that ends the header block
    /// follows it (``FieldLine/isEmptyLine(_:)``).
    mutating func endFields() {
        if fieldDefect == nil, let nextLine, !FieldLine.isEmptyLine(nextLine) {
            fieldDefect = .controlInValue
        }
    }

    /// Keeps `value` when `key` (of `size` bytes) names a wanted field not
    /// seen yet; notes a second field of a framing name, and the first
    /// malformed line.
    private mutating func note(
        _ key: UnsafePointer<CChar>, _ size: Int, _ value: UnsafePointer<CChar>, _ valueSize: Int
    ) {
        if fieldDefect == nil {
            fieldDefect =
                FieldLine.defect(name: key, nameSize: size, value: value, valueSize: valueSize)
                ?? (nextLine.map { $0 != key } == true ? .controlInValue : nil)
        }
        nextLine = value + valueSize + 2
        switch size {
        case 4 where Self.is(key, "host"):
            hasSecondHost = hasSecondHost || host != nil
            host = host ?? value
        case 6 where Self.is(key, "origin"): origin = origin ?? value
        case 6 where Self.is(key, "accept"): accept = accept ?? value
        case 6 where Self.is(key, "cookie"): cookie = cookie ?? value
        case 11 where Self.is(key, "min-version"): minVersion = minVersion ?? value
        case 13 where Self.is(key, "if-none-match"): ifNoneMatch = ifNoneMatch ?? value
        case 13 where Self.is(key, "authorization"): authorization = authorization ?? value
        case 14 where Self.is(key, "content-length"):
            if let first = contentLength {
                hasConflictingContentLength = hasConflictingContentLength || strcmp(first, value) != 0
            } else {
                contentLength = value
            }
        case 15 where Self.is(key, "accept-encoding"): acceptEncoding = acceptEncoding ?? value
        case 15 where Self.is(key, "idempotency-key"):
            hasSecondIdempotencyKey = hasSecondIdempotencyKey || hasIdempotencyKey
            hasIdempotencyKey = true
        case 16 where Self.is(key, "content-encoding"): contentEncoding = contentEncoding ?? value
        case 17 where Self.is(key, "transfer-encoding"):
            if transferEncoding == nil {
                transferEncoding = value
            } else {
                moreTransferEncodings.append(value)
            }
        default: break
        }
    }

    /// Whether `key` is `name` (lowercase ASCII, as long as `key`) but for case.
    private static func `is`(_ key: UnsafePointer<CChar>, _ name: StaticString) -> Bool {
        let name = name.utf8Start
        var index = 0
        while name[index] != 0 {
            var byte = UInt8(bitPattern: key[index])
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                byte |= 0x20
            }
            guard byte == name[index] else {
                return false
            }
            index += 1
        }
        return true
    }
}
