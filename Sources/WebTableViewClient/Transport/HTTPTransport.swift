import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the client reaches the server: one request, one whole answer. URLSession
/// on every platform (docs/ARCHITECTURE.md, "The client library"); tests and apps
/// may put their own underneath (a proxy, a recording).
public protocol HTTPTransport: Sendable {
    /// Sends `request` and answers its status, headers and body; throws only when
    /// no answer came (the connection failed or was cut).
    func send(_ request: URLRequest) async throws -> HTTPAnswer
}

/// `HTTPTransport` over a `URLSession`.
public struct URLSessionTransport: HTTPTransport {
    public let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: URLRequest) async throws -> HTTPAnswer {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return HTTPAnswer(status: http.statusCode, headers: http.lowercasedHeaders, body: Array(data))
    }
}

extension HTTPURLResponse {
    /// Header values by lower-cased name.
    var lowercasedHeaders: [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return headers
    }
}
