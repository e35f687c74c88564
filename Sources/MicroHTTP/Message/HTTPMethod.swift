import Glibc

/// The request methods the server routes. Any other method is answered 405
/// with the methods its path allows (404 when nothing is at the path).
public enum HTTPMethod: String, Sendable, CaseIterable {
    case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS

    /// The method libmicrohttpd read, matched without making a `String`.
    init?(cString name: UnsafePointer<CChar>) {
        guard let method = Self.allCases.first(where: { $0.rawValue.withCString { strcmp(name, $0) == 0 } }) else {
            return nil
        }
        self = method
    }
}

extension HTTPMethod {
    /// The method's place in `allCases`.
    var position: Int {
        switch self {
        case .GET: 0
        case .HEAD: 1
        case .POST: 2
        case .PUT: 3
        case .PATCH: 4
        case .DELETE: 5
        case .OPTIONS: 6
        }
    }
}

/// A set of methods as bits, one per ``HTTPMethod/position``: what a path allows.
struct HTTPMethodSet: Sendable, Equatable {
    private var bits: UInt8 = 0

    func contains(_ method: HTTPMethod) -> Bool { bits & (1 << method.position) != 0 }
    mutating func insert(_ method: HTTPMethod) { bits |= 1 << method.position }
    mutating func remove(_ method: HTTPMethod) { bits &= ~(1 << method.position) }
    mutating func formUnion(_ other: HTTPMethodSet) { bits |= other.bits }
    var isEmpty: Bool { bits == 0 }
}
