import MicroHTTP

/// The cookie a share link sets (docs/ACCESS.md, "Share links"): its key,
/// `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page
/// makes a browser send it), `Secure` when the request came over HTTPS, for
/// the whole site, as long as the link lives.
enum ShareCookie {
    static let name = "webtableview-share"

    /// The share key a `Cookie` field's value carries, if it does.
    static func key(inField header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let pair = pair.drop { $0 == " " }
            guard let equals = pair.firstIndex(of: "="), pair[..<equals] == name else { continue }
            return String(pair[pair.index(after: equals)...])
        }
        return nil
    }

    /// `Set-Cookie` for `key`, for `seconds` more.
    static func setting(_ key: String, for seconds: Int, secure: Bool) -> String {
        "\(name)=\(key); Max-Age=\(seconds); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// `Set-Cookie` that removes the cookie (sign-out).
    static func clearing(secure: Bool) -> String {
        setting("", for: 0, secure: secure)
    }

    /// Whether the request came over HTTPS: this server speaks plain HTTP,
    /// so only a proxy in front of it that terminates TLS can say so, with
    /// `X-Forwarded-Proto: https` (deploy/nginx.conf sets it).
    static func isSecure(_ request: HTTPRequest) -> Bool {
        let proto = request.headers["X-Forwarded-Proto"]?.split(separator: ",").first
        return proto?.drop { $0 == " " }.lowercased() == "https"
    }
}
