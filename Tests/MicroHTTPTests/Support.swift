import Glibc
import MicroHTTP
import MicroHTTPTesting
import Synchronization

/// A value shared between a test and the handlers or callbacks it installs.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) {
        storage = Mutex(value)
    }

    var value: Value {
        storage.withLock { $0 }
    }

    func update<T: Sendable>(_ change: @Sendable (inout Value) -> T) -> T {
        storage.withLock { change(&$0) }
    }
}

/// A live server for tests that need the server itself (streams, shutdown,
/// metrics); shut down when `body` returns.
func withLiveServer<T>(
    _ router: Router,
    configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    _ body: (HTTPServer, TestClient) throws -> T
) throws -> T {
    try withTestServer(router, transport: .live, configuration: configuration) { client in
        try body(client.server!, client)
    }
}
