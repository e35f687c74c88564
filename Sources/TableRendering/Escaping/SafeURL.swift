/// Which URLs the renderer writes into `src` and `href`: `http:` and `https:`
/// URLs and paths, nothing that a browser could run or send elsewhere unasked.
///
/// Defence in depth: the decoder refuses other URLs too, but a template must never
/// depend on that.
enum SafeURL {
    /// `url` HTML-escaped when it is allowed, nil when it is absent or refused.
    static func escaped(_ url: String?) -> String? {
        guard let url, isAllowed(url) else { return nil }
        return HTMLEscaping.escape(url)
    }

    /// True for `http://…`, `https://…` (any letter case), an absolute path
    /// (`/public/x.svg`, but not the scheme-relative `//host`) and a relative
    /// reference whose first segment has no colon (`flags/usa.svg`, `?offset=5`).
    ///
    /// Refused as well: control characters, spaces at either end and backslashes,
    /// which browsers strip or read as `/` (so `java\tscript:` and `/\host`
    /// would otherwise slip through).
    static func isAllowed(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { isAllowed(bytes: $0) }
    }

    private static func isAllowed(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        guard first != UInt8(ascii: " "), last != UInt8(ascii: " ") else { return false }
        for byte in bytes where byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") {
            return false
        }
        if hasPrefix(bytes, "https://") { return bytes.count > 8 }
        if hasPrefix(bytes, "http://") { return bytes.count > 7 }
        if first == UInt8(ascii: "/") {
            return bytes.count == 1 || bytes[1] != UInt8(ascii: "/")
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: ":"): return false
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return true
            default: continue
            }
        }
        return true
    }

    /// Case-insensitive ASCII prefix test.
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { expected in
            for (index, byte) in expected.enumerated() {
                let actual = bytes[index]
                let lowered = (actual >= 0x41 && actual <= 0x5A) ? actual + 0x20 : actual
                if lowered != byte { return false }
            }
            return true
        }
    }
}
