import Glibc
import MicroHTTP
import MicroHTTPTesting
import Synchronization

/// Polls `condition` until it holds or `timeout` passes; answers whether it held.
/// For waiting on the server's background work, not for timing it.
func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            return false
        }
        usleep(2_000)
    }
    return true
}

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
