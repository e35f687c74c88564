/// What the server checks of where a request comes from, and the header
/// fields it adds to every answer: applied before routing, so answers kept
/// ready (``PreparedResponses``) are covered too.
public struct OriginPolicy: Sendable {
    /// Host names (lowercased, without port; IPv6 in brackets) the `Host`
    /// header may name; another is answered 421 and nothing runs. nil serves
    /// any. A server bound to a loopback address should set it: a web page
    /// whose name rebinds to 127.0.0.1 then cannot reach it (DNS rebinding).
    public var allowedHosts: Set<String>?
    /// Origins (`scheme://host[:port]`) allowed to call from another origin
    /// (CORS): their requests are answered with `Access-Control-Allow-Origin`,
    /// and their preflights with the methods the path allows. None by default.
    public var corsOrigins: Set<String>
    /// Header fields added to every answer the server makes (security headers).
    public var responseHeaders: HTTPHeaders

    public init(allowedHosts: Set<String>? = nil, corsOrigins: Set<String> = [], responseHeaders: HTTPHeaders = HTTPHeaders()) {
        self.allowedHosts = allowedHosts
        self.corsOrigins = corsOrigins
        self.responseHeaders = responseHeaders
    }

    /// The names a loopback server answers to by default.
    public static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// Whether `address` (as given to bind) is a loopback one: `localhost`,
    /// 127.0.0.0/8 or `::1`.
    public static func isLoopback(_ address: String) -> Bool {
        let name = address.lowercased()
        if name == "localhost" || name == "::1" || name == "[::1]" {
            return true
        }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// The host name of a `Host` header value (`name`, `name:port`,
    /// `[v6]:port`), lowercased; nil when the port is not a number.
    public static func hostName(of value: String) -> String? {
        let value = value.lowercased()
        var name = Substring(value)
        var port: Substring?
        if value.hasPrefix("[") {
            guard let end = value.firstIndex(of: "]") else {
                return nil
            }
            name = value[...end]
            let rest = value[value.index(after: end)...]
            if !rest.isEmpty {
                guard rest.first == ":" else {
                    return nil
                }
                port = rest.dropFirst()
            }
        } else if let colon = value.firstIndex(of: ":") {
            name = value[..<colon]
            port = value[value.index(after: colon)...]
        }
        if let port, port.isEmpty || UInt16(port) == nil {
            return nil
        }
        return name.isEmpty ? nil : String(name)
    }

    /// Whether a request with this `Host` header is served.
    func allows(host: String?) -> Bool {
        guard let allowedHosts else {
            return true
        }
        // A request without Host (HTTP/1.0) cannot come from a browser.
        guard let host else {
            return true
        }
        return hostName(of: host).map(allowedHosts.contains) ?? false
    }

    private func hostName(of value: String) -> String? {
        Self.hostName(of: value)
    }

    /// Adds the CORS fields to `response` when `origin` is allowed; a
    /// preflight (`OPTIONS` with `Access-Control-Request-Method`) also gets
    /// the methods the path allows and the request fields the API reads.
    func applyCORS(to response: inout HTTPResponse, origin: String?, request: HTTPRequest) {
        guard let origin, corsOrigins.contains(origin) else {
            return
        }
        response.headers.set("Access-Control-Allow-Origin", origin)
        response.headers.add("Vary", "Origin")
        if request.method == .OPTIONS, request.headers.contains("Access-Control-Request-Method"),
            let allow = response.headers["Allow"]
        {
            response.headers.set("Access-Control-Allow-Methods", allow)
            response.headers.set(
                "Access-Control-Allow-Headers", "Authorization, Content-Type, If-Match, If-None-Match, Last-Event-ID")
            response.headers.set("Access-Control-Max-Age", "600")
        } else {
            response.headers.set("Access-Control-Expose-Headers", "ETag, Location, X-Request-Id")
        }
    }
}
