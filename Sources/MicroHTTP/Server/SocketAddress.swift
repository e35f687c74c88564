import Glibc

/// The address the server binds, as a `sockaddr` for `MHD_OPTION_SOCK_ADDR`.
struct SocketAddress {
    enum Family {
        case ipv4(sockaddr_in)
        case ipv6(sockaddr_in6)
    }

    let family: Family

    var isIPv6: Bool {
        if case .ipv6 = family { true } else { false }
    }

    /// Resolves `host` (a literal, `localhost`, or a name) with `port`.
    init(host: String, port: Int) throws(HTTPServerError) {
        guard (0...65_535).contains(port) else {
            throw .invalidAddress(host: host, port: port)
        }
        var literal = host == "localhost" ? "127.0.0.1" : host
        if literal.hasPrefix("["), literal.hasSuffix("]") {
            literal = String(literal.dropFirst().dropLast())
        }
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_port = UInt16(port).bigEndian
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            family = .ipv4(v4)
            return
        }
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = UInt16(port).bigEndian
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            family = .ipv6(v6)
            return
        }
        family = try Self.resolve(host: host, port: port)
    }

    private static func resolve(host: String, port: Int) throws(HTTPServerError) -> Family {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else {
            throw .invalidAddress(host: host, port: port)
        }
        defer { freeaddrinfo(result) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            switch info.pointee.ai_family {
            case AF_INET:
                var address = info.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
                address.sin_port = UInt16(port).bigEndian
                return .ipv4(address)
            case AF_INET6:
                var address = info.pointee.ai_addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
                address.sin6_port = UInt16(port).bigEndian
                return .ipv6(address)
            default:
                entry = info.pointee.ai_next
            }
        }
        throw .invalidAddress(host: host, port: port)
    }

    /// Calls `body` with a pointer to the `sockaddr`.
    func withSockAddr<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T {
        switch family {
        case .ipv4(var address):
            withUnsafeMutableBytes(of: &address) { body($0.baseAddress!) }
        case .ipv6(var address):
            withUnsafeMutableBytes(of: &address) { body($0.baseAddress!) }
        }
    }
}

/// Why the server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// The host does not resolve, or the port is out of range.
    case invalidAddress(host: String, port: Int)
    /// libmicrohttpd could not start (the port is in use, for example).
    case cannotListen(host: String, port: Int, errno: Int32)
    /// ``HTTPServer/start()`` was called twice.
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidAddress(let host, let port):
            "cannot resolve \(host):\(port)"
        case .cannotListen(let host, let port, let code):
            "cannot listen on \(host):\(port): \(String(cString: strerror(code)))"
        case .alreadyStarted:
            "the server is already started"
        }
    }
}
