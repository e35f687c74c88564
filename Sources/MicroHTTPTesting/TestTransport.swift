import MicroHTTP

/// How a ``TestClient`` reaches the router.
public enum TestTransport: String, Sendable, CaseIterable {
    /// Calls `Router.respond(to:)` directly: fast, no sockets.
    case inProcess
    /// Starts an ``HTTPServer`` on 127.0.0.1 with a free port and speaks
    /// HTTP/1.1 to it over a socket.
    case live
}

/// Runs `body` with a client for `router` over `transport`; a live server is
/// shut down when `body` returns or throws.
///
/// A live server always listens on 127.0.0.1 with a port picked by the system;
/// the rest of `configuration` applies as given.
public func withTestServer<Result>(
    _ router: Router,
    transport: TestTransport,
    configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    _ body: (TestClient) throws -> Result
) throws -> Result {
    switch transport {
    case .inProcess:
        return try body(TestClient(router: router))
    case .live:
        var configuration = configuration
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        defer { server.shutdown() }
        return try body(TestClient(server: server))
    }
}

/// Why a test client could not talk to the server.
public enum TestClientError: Error, Equatable {
    case cannotConnect(errno: Int32)
    case cannotSend(errno: Int32)
    case timedOut
    case closedEarly
    case malformedResponse(String)
    /// A socket was asked of an in-process client.
    case notLive
}
