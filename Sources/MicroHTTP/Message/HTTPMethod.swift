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
