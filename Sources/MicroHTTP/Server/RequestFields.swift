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
/// first field of a name wins. The values are libmicrohttpd's bytes, which
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
    var accept: UnsafePointer<CChar>?

    /// No fields.
    init() {}

    /// The fields of the request on `connection`.
    init(of connection: OpaquePointer) {
        withUnsafeMutablePointer(to: &self) { fields in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { context, _, key, keySize, value, _ in
                    if let context, let key {
                        context.assumingMemoryBound(to: RequestFields.self).pointee.note(key, keySize, value)
                    }
                    return .YES
                }, fields)
        }
    }

    /// Keeps `value` when `key` (of `size` bytes) names a wanted field not seen yet.
    private mutating func note(_ key: UnsafePointer<CChar>, _ size: Int, _ value: UnsafePointer<CChar>?) {
        switch size {
        case 4: Self.keep(value, as: &host, when: key, is: "host")
        case 6:
            Self.keep(value, as: &origin, when: key, is: "origin")
            Self.keep(value, as: &accept, when: key, is: "accept")
        case 11: Self.keep(value, as: &minVersion, when: key, is: "min-version")
        case 13: Self.keep(value, as: &ifNoneMatch, when: key, is: "if-none-match")
        case 14: Self.keep(value, as: &contentLength, when: key, is: "content-length")
        case 15: Self.keep(value, as: &acceptEncoding, when: key, is: "accept-encoding")
        case 17: Self.keep(value, as: &transferEncoding, when: key, is: "transfer-encoding")
        default: break
        }
    }

    /// `name` is lowercase ASCII and as long as `key`.
    private static func keep(
        _ value: UnsafePointer<CChar>?, as field: inout UnsafePointer<CChar>?, when key: UnsafePointer<CChar>,
        is name: StaticString
    ) {
        guard field == nil, let value else {
            return
        }
        let name = name.utf8Start
        var index = 0
        while name[index] != 0 {
            var byte = UInt8(bitPattern: key[index])
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                byte |= 0x20
            }
            guard byte == name[index] else {
                return
            }
            index += 1
        }
        field = value
    }
}
