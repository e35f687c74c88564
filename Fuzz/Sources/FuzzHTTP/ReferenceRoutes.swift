import FuzzSupport
import MicroHTTP

/// The server's routes (docs/API.md), plus two that make the router backtrack, and
/// an independent, brute-force answer to "which route takes this request".
enum ReferenceRoutes {
    static let all: [(method: HTTPMethod, pattern: String)] = [
        (.GET, "/"), (.GET, "/healthz"), (.GET, "/metrics"), (.GET, "/api/openapi.json"),
        (.GET, "/api/tables"), (.POST, "/api/tables"),
        (.GET, "/api/tables/{t}"), (.PUT, "/api/tables/{t}"), (.PATCH, "/api/tables/{t}"), (.DELETE, "/api/tables/{t}"),
        (.GET, "/api/tables/{t}/sections"), (.POST, "/api/tables/{t}/sections"),
        (.PUT, "/api/tables/{t}/sections/{s}"), (.DELETE, "/api/tables/{t}/sections/{s}"),
        (.POST, "/api/tables/{t}/sections/{s}/move"),
        (.GET, "/api/tables/{t}/sections/{s}/rows"), (.POST, "/api/tables/{t}/sections/{s}/rows"),
        (.GET, "/api/tables/{t}/sections/{s}/rows/{r}"), (.PUT, "/api/tables/{t}/sections/{s}/rows/{r}"),
        (.DELETE, "/api/tables/{t}/sections/{s}/rows/{r}"),
        (.POST, "/api/tables/{t}/sections/{s}/rows/{r}/move"),
        (.POST, "/api/tables/{t}/sections/{s}/rows/{r}/select"),
        (.POST, "/api/tables/{t}/sections/{s}/rows/{r}/deselect"),
        (.POST, "/api/tables/{t}/batch"), (.GET, "/api/tables/{t}/changes"), (.GET, "/api/tables/{t}/events"),
        (.GET, "/tables/{t}"), (.GET, "/tables/{t}/sections/{s}/rows"),
        (.GET, "/public/{path...}"),
        (.GET, "/files/{path...}"), (.GET, "/files/special/{name}"), (.DELETE, "/files/{a}/{b}"),
    ]

    /// What the router must answer for `method` on `path`: the pattern of the
    /// most specific matching route for the method (HEAD taking GET's), else
    /// the methods the matching routes allow; nil when no route matches.
    ///
    /// The path is cut at its `/` bytes, as URLs are: a combining mark after a
    /// `/` makes one `Character` of the two, but it does not hide the slash.
    static func expected(_ method: HTTPMethod, _ path: String) -> (pattern: String?, allowed: Set<HTTPMethod>)? {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        let segments = bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        let matches = all.compactMap { route in rank(route.pattern, segments).map { (route, $0) } }
            .sorted { $0.1.lexicographicallyPrecedes($1.1) }
        guard !matches.isEmpty else { return nil }
        let taking = matches.first { $0.0.method == method } ?? matches.first { method == .HEAD && $0.0.method == .GET }
        return (taking?.0.pattern, Set(matches.map(\.0.method)))
    }

    /// `path` with its empty segments left out (`/api/tables/` → `/api/tables`);
    /// nil when it has none or does not start with `/`.
    static func withoutEmptySegments(_ path: String) -> String? {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        let segments = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        let joined = "/" + segments.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
        return joined == path ? nil : joined
    }

    /// How specific `pattern` is on `segments`, segment by segment (literal 0,
    /// parameter 1, catch-all 2), or nil when it does not match. Literals match
    /// byte for byte, as URLs compare (not by Unicode canonical equivalence).
    private static func rank(_ pattern: String, _ segments: [ArraySlice<UInt8>]) -> [Int]? {
        var rank: [Int] = []
        for (index, piece) in pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            if piece.hasSuffix("...}") { return rank + [2] }
            guard index < segments.count else { return nil }
            if piece.hasPrefix("{") {
                guard !segments[index].isEmpty else { return nil }
                rank.append(1)
            } else {
                guard segments[index].elementsEqual(piece.utf8) else { return nil }
                rank.append(0)
            }
        }
        return rank.count == segments.count ? rank : nil
    }

    /// The path a route's handler must have been called for: its pattern with
    /// the captured values put back (a catch-all may have eaten a final `/`).
    static func rebuild(_ pattern: String, _ parameters: PathParameters) -> String {
        pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { piece in
            guard piece.hasPrefix("{") else { return String(piece) }
            let name = piece.dropFirst().dropLast().replacing("...", with: "")
            let value = parameters[String(name)] ?? "<missing \(name)>"
            require(piece.hasSuffix("...}") || !(value.isEmpty || value.contains("/")), "\(name) captured \"\(value)\"")
            return value
        }.reduce("") { $0 + "/" + $1 }
    }
}
