/// Near-misses of a route's path: a trailing slash (`/api/tables/`) or an
/// empty segment (`/api//tables`). The router answers such a path, when the
/// path without them is a route's, `308 Permanent Redirect` to that path
/// (docs/API.md, "Status codes"), so the method and body go there unchanged.
enum CanonicalTarget {
    /// `path` without empty segments; nil when it has none (it is already
    /// canonical) or is no path (it does not start with `/`).
    static func path(_ path: String) -> String? {
        guard path.utf8.first == UInt8(ascii: "/") else { return nil }
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        let canonical = "/" + segments.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
        return canonical == path ? nil : canonical
    }

    /// The `Location` of `path` with `query`: both percent-encoded again, the
    /// arguments in name order (the router keeps the first value of each, so
    /// the target means to it what the request did).
    static func location(path: String, query: [String: String]) -> String {
        var location = encoded(path, keeping: isPathByte)
        guard !query.isEmpty else { return location }
        location += "?"
        location += query.sorted { $0.key < $1.key }
            .map { encoded($0.key, keeping: isUnreserved) + "=" + encoded($0.value, keeping: isUnreserved) }
            .joined(separator: "&")
        return location
    }

    private static func encoded(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if keep(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986 `unreserved`: letters, digits, `-`, `.`, `_`, `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("-._~".utf8).contains(byte)
        }
    }

    /// What a path may hold as it is: `unreserved`, `/`, and the `sub-delims`,
    /// `:` and `@` of RFC 3986's `pchar`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || Array("/!$&'()*+,;=:@".utf8).contains(byte)
    }
}
