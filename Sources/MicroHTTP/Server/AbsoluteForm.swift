import Glibc

/// A request target in absolute-form (`http://host:port/path`), which a
/// server must accept (RFC 9112 §3.2.2): routed by its path, and its
/// authority taken in place of the `Host` field (docs/RELIABILITY.md, "Framing").
/// libmicrohttpd 0.9.75 hands the target on as it came, up to its query.
enum AbsoluteForm {
    /// The path of `url` when it is absolute-form (`/` when it has none), and
    /// its authority, NUL-terminated; nil when `url` is not absolute-form.
    static func split(_ url: UnsafePointer<CChar>) -> (path: UnsafePointer<CChar>, authority: [CChar])? {
        guard url[0] == CChar(UInt8(ascii: "h")) || url[0] == CChar(UInt8(ascii: "H")) else {
            return nil
        }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(url).assumingMemoryBound(to: UInt8.self), count: strlen(url))
        let schemeEnd: Int
        if hasPrefix(bytes, "http://") {
            schemeEnd = 7
        } else if hasPrefix(bytes, "https://") {
            schemeEnd = 8
        } else {
            return nil
        }
        let slash = bytes[schemeEnd...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
        let authority = bytes[schemeEnd..<slash].map { CChar(bitPattern: $0) } + [0]
        return (slash < bytes.count ? url + slash : root, authority)
    }

    /// `/`, the path of a target without one (a static string's bytes, never written).
    private static var root: UnsafePointer<CChar> {
        UnsafeRawPointer(("/" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Whether `bytes` start with `prefix` (lowercase ASCII) but for case.
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else {
            return false
        }
        return (0..<prefix.utf8CodeUnitCount).allSatisfy { bytes[$0] | 0x20 == prefix.utf8Start[$0] }
    }
}
