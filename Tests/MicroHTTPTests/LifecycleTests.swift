import Dispatch
import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct LifecycleTests {
    static func router() -> Router {
        var router = Router()
        router.add(.GET, "/ping") { _ in .text("pong") }
        return router
    }

    @Test func portZeroPicksAFreePort() throws {
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0), router: Self.router())
        #expect(server.port == 0)
        let port = try server.start()
        defer { server.shutdown() }
        #expect(port > 0)
        #expect(server.port == port)
        let connection = try RawConnection(port: port)
        try connection.sendRequest(path: "/ping")
        #expect(try connection.readResponse().text == "pong")
    }

    @Test func aPortInUseIsAnError() throws {
        let first = HTTPServer(configuration: HTTPServer.Configuration(port: 0), router: Self.router())
        let port = try first.start()
        defer { first.shutdown() }
        let second = HTTPServer(configuration: HTTPServer.Configuration(port: port), router: Self.router())
        #expect(throws: HTTPServerError.self) { try second.start() }
    }

    @Test func startingTwiceIsAnError() throws {
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0), router: Self.router())
        try server.start()
        defer { server.shutdown() }
        #expect(throws: HTTPServerError.alreadyStarted) { try server.start() }
    }

    @Test func anUnknownHostIsAnError() {
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(host: "no-such-host.invalid", port: 0), router: Self.router())
        #expect(throws: HTTPServerError.invalidAddress(host: "no-such-host.invalid", port: 0)) { try server.start() }
    }

    @Test(arguments: ["127.0.0.1", "localhost"])
    func bindsTheIPv4LoopbackOnly(_ host: String) throws {
        let server = HTTPServer(configuration: HTTPServer.Configuration(host: host, port: 0), router: Self.router())
        let port = try server.start()
        defer { server.shutdown() }
        let connection = try RawConnection(host: "127.0.0.1", port: port)
        try connection.sendRequest(path: "/ping")
        #expect(try connection.readResponse().text == "pong")
        #expect(throws: TestClientError.self) { try RawConnection(host: "::1", port: port) }
    }

    @Test func bindsAnIPv6Literal() throws {
        let server = HTTPServer(configuration: HTTPServer.Configuration(host: "::1", port: 0), router: Self.router())
        let port = try server.start()
        defer { server.shutdown() }
        let connection = try RawConnection(host: "::1", port: port)
        try connection.sendRequest(path: "/ping")
        #expect(try connection.readResponse().text == "pong")
    }

    @Test func shutdownIsIdempotentAndClosesTheListener() throws {
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0), router: Self.router())
        server.shutdown()
        let port = try server.start()
        server.shutdown()
        server.shutdown()
        #expect(throws: TestClientError.self) { try RawConnection(port: port) }
    }

    static func isRefused(port: Int) -> Bool {
        guard let connection = try? RawConnection(port: port) else {
            return true
        }
        try? connection.sendRequest(path: "/ping")
        return (try? connection.readResponse(timeout: .seconds(2))) == nil
    }

    @Test func inFlightRequestFinishesDuringShutdown() throws {
        let entered = Shared(false)
        let release = Shared(false)
        var router = Router()
        router.add(.GET, "/slow") { _ in
            entered.update { $0 = true }
            _ = eventually { release.value }
            return .text("done")
        }
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0), router: router)
        let port = try server.start()
        let connection = try RawConnection(port: port)
        try connection.sendRequest(path: "/slow")
        #expect(eventually { entered.value })
        let stopped = Shared(false)
        DispatchQueue.global().async {
            server.shutdown()
            stopped.update { $0 = true }
        }
        // New connections are closed unanswered once shutdown has begun.
        #expect(eventually { Self.isRefused(port: port) })
        #expect(!stopped.value)
        release.update { $0 = true }
        #expect(try connection.readResponse().text == "done")
        #expect(eventually { stopped.value })
    }
}
