import JSON

extension DecodingContext {
    /// A URL for `image`, `link` or `detailLink`, or `null` for none.
    ///
    /// Allowed: `http:` and `https:` URLs (scheme in any case) and paths (`/a`,
    /// `./a`, `../a`, `a/b`). Refused: every other scheme (`javascript:`, `data:`,
    /// …), scheme-relative `//host` (it would leave the server), and control
    /// characters, backslashes and leading or trailing spaces, which browsers
    /// strip or rewrite (`/\host` means `//host` to them) before resolving.
    mutating func optionalURL(_ value: JSONValue) -> String? {
        if case .null = value { return nil }
        guard case .string(let url) = value else {
            report("expected a string or null, found \(value.kindDescription)")
            return nil
        }
        if let problem = Self.urlProblem(url, maxBytes: limits.maxURLBytes) {
            report(problem)
            return nil
        }
        return url
    }

    /// Why `url` is refused, or nil when it is allowed.
    static func urlProblem(_ url: String, maxBytes: Int) -> String? {
        let utf8 = url.utf8
        guard utf8.count <= maxBytes else { return "URL is \(utf8.count) bytes; the limit is \(maxBytes)" }
        guard let first = utf8.first, let last = utf8.last else { return "URL is empty (use null for none)" }
        if utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) {
            return "URL must not contain control characters or backslashes"
        }
        if first == UInt8(ascii: " ") || last == UInt8(ascii: " ") {
            return "URL must not start or end with a space"
        }
        if utf8.starts(with: "//".utf8) {
            return "scheme-relative URL not allowed (use http, https or a path)"
        }
        // A scheme is whatever precedes a ':' that comes before any '/', '?' or '#'.
        let delimiters: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")]
        guard let end = utf8.firstIndex(where: delimiters.contains), utf8[end] == UInt8(ascii: ":") else {
            return nil
        }
        switch String(url[..<end]).lowercased() {
        case "http", "https": return nil
        default: return "URL scheme not allowed (use http, https or a path)"
        }
    }
}
