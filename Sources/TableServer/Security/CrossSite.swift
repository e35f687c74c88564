import MicroHTTP

/// Refusing edits a page on another site makes a browser send (CSRF): a
/// cross-site HTML form can POST to select and deselect, which take no body,
/// and a page whose name rebinds to us could send anything.
enum CrossSite {
    /// The server the security headers describe: scripts only from here, no
    /// plugins, no framing (the Edit/Delete UI cannot be clickjacked), no
    /// `Referer` to the sites rows link to, no content-type sniffing.
    static let responseHeaders: HTTPHeaders = [
        "Content-Security-Policy": "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
    ]

    /// Whether an edit comes from another site and is not allowed to: an
    /// `Origin` that is neither ours (the origin the `Host` header names) nor
    /// one of `corsOrigins` (`null` included), or, without `Origin`,
    /// `Sec-Fetch-Site: cross-site`. Requests from tools (curl) carry neither.
    /// A form our own page posts (Sign Out) says `Origin: null`, as the
    /// page's `Referrer-Policy: no-referrer` makes a browser say for a form;
    /// then the browser's own `Sec-Fetch-Site: same-origin`, which no page
    /// can set, says it is ours.
    static func isRefused(_ request: HTTPRequest, corsOrigins: Set<String>) -> Bool {
        if let origin = request.headers["Origin"] {
            if corsOrigins.contains(origin) { return false }
            if origin == "null", request.headers["Sec-Fetch-Site"]?.lowercased() == "same-origin" { return false }
            return !isOurs(origin, host: request.headers["Host"])
        }
        return request.headers["Sec-Fetch-Site"]?.lowercased() == "cross-site"
    }

    /// `origin` is `http://` or `https://` followed by exactly the `Host` value.
    private static func isOurs(_ origin: String, host: String?) -> Bool {
        guard let host else { return false }
        let origin = origin.lowercased()
        for scheme in ["http://", "https://"] where origin.hasPrefix(scheme) {
            return origin.dropFirst(scheme.count) == host.lowercased()
        }
        return false
    }

    static func refusal() -> HTTPResponse {
        .problem(
            status: 403, type: "cross-site-request",
            detail: "Edits from another site are refused; allow its origin with --cors-origin.")
    }
}
