/// The request methods the server routes. Any other method is answered 405
/// with the methods its path allows (404 when nothing is at the path).
public enum HTTPMethod: String, Sendable, CaseIterable {
    case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS
}
