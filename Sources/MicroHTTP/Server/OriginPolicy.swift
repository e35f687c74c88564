import Glibc

/// What the server checks of where a request comes from, and the header
/// fields it adds to every answer: applied before routing, so answers kept
/// ready (``PreparedResponses``) are covered too.
public struct OriginPolicy: Sendable {
    /// Host names (lowercased, without port; IPv6 in brackets) the `Host`
    /// header may name; another is answered 421 and nothing runs. nil serves
    /// any. A server bound to a loopback address should set it: a web page
    /// whose name rebinds to 127.0.0.1 then cannot reach it (DNS rebinding).
    public var allowedHosts: Set<String>? {
        didSet { allowedHostBytes = allowedHosts.map(Self.bytes) }
    }
    /// ``allowedHosts`` as bytes, made once for ``allows(host:)``.
    private var allowedHostBytes: [[UInt8]]?
    /// Origins (`scheme://host[:port]`) allowed to call from another origin
    /// (CORS): their requests are answered with `Access-Control-Allow-Origin`,
    /// and their preflights with the methods the path allows. None by default.
    public var corsOrigins: Set<String>
    /// Header fields added to every answer the server makes (security headers).
    public var responseHeaders: HTTPHeaders
    /// The `detail` of the 421 a host not in ``allowedHosts`` gets: the
    /// application says there how to allow one.
    public var misdirectedDetail = "This server does not answer to the host named in the Host header."

    public init(
        allowedHosts: Set<String>? = nil, corsOrigins: Set<String> = [], responseHeaders: HTTPHeaders = HTTPHeaders()
    ) {
        self.allowedHosts = allowedHosts
        self.allowedHostBytes = allowedHosts.map(Self.bytes)
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

    /// Whether a request with this `Host` header (libmicrohttpd's bytes) is
    /// served. This runs for every request, kept answers included, so the
    /// usual value — an allowed name as written, with or without a port — is
    /// matched on its bytes without making a String; any other value is
    /// judged by ``hostName(of:)``, which accepts everything the bytes do.
    func allows(host field: UnsafePointer<CChar>?) -> Bool {
        guard let allowedHostBytes else {
            return true
        }
        // A request without Host (HTTP/1.0) cannot come from a browser.
        guard let field else {
            return true
        }
        let value = UnsafeBufferPointer(
            start: UnsafeRawPointer(field).assumingMemoryBound(to: UInt8.self), count: strlen(field))
        for name in allowedHostBytes where Self.names(value, asWritten: name) {
            return true
        }
        return Self.hostName(of: String(cString: field)).map { allowedHosts?.contains($0) == true } ?? false
    }

    private static func bytes(_ names: Set<String>) -> [[UInt8]] {
        names.map { Array($0.utf8) }
    }

    /// Whether `value` is exactly `name` (lowercase, as the allowed names
    /// are kept), optionally followed by `:` and a port of 1–5 digits up to
    /// 65535. Compared with `memcmp` and one loop over the digits: this runs
    /// for every request (docs/perf-history/reads-and-pages.md, *Fewer steps for a kept answer*).
    private static func names(_ value: UnsafeBufferPointer<UInt8>, asWritten name: [UInt8]) -> Bool {
        guard let start = value.baseAddress, value.count >= name.count, memcmp(start, name, name.count) == 0 else {
            return false
        }
        var index = name.count
        guard index < value.count else {
            return true
        }
        guard value[index] == UInt8(ascii: ":"), (1...5).contains(value.count - index - 1) else {
            return false
        }
        index += 1
        var port = 0
        while index < value.count {
            let digit = value[index] &- UInt8(ascii: "0")
            guard digit < 10 else {
                return false
            }
            port = port * 10 + Int(digit)
            index += 1
        }
        return port <= Int(UInt16.max)
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
