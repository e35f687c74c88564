import Dispatch
import Foundation
import Glibc
import MicroHTTP
import MicroHTTPTesting
import Testing

/// A router whose `POST /later?n=N` answers later: its deferred answers are
/// kept by `n` for the test to complete. `GET /ping` answers at once.
final class DeferredFixture: Sendable {
    let waiting = Shared<[String: DeferredResponse]>([:])
    /// The threads that ran the handler of /later.
    let handlerThreads = Shared<Set<pid_t>>([])

    func router() -> Router {
        var router = Router()
        router.add(.POST, "/later") { [self] request in
            let deferral = DeferredResponse()
            waiting.update { $0[request.query["n"] ?? ""] = deferral }
            handlerThreads.update { _ = $0.insert(ThreadState.current()) }
            return .deferred(deferral)
        }
        router.add(.POST, "/now") { _ in
            let deferral = DeferredResponse()
            deferral.complete(.text("ready", status: 201))
            return .deferred(deferral)
        }
        router.add(.GET, "/ping") { _ in .text("pong") }
        return router
    }

    /// The deferred answer of request `n`, once its handler has run.
    func deferral(_ n: String) -> DeferredResponse? {
        _ = eventually { waiting.value[n] != nil }
        return waiting.value[n]
    }

    /// Completes `deferral` from a thread of its own, and waits for that.
    static func complete(_ deferral: DeferredResponse, with response: HTTPResponse) -> Bool {
        let accepted = Shared(false)
        let done = DispatchSemaphore(value: 0)
        Thread {
            accepted.update { $0 = deferral.complete(response) }
            done.signal()
        }.start()
        done.wait()
        return accepted.value
    }
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct DeferredResponseTests {
    /// One worker thread: a request waits for its answer while the thread
    /// answers another connection; completed from another thread, the answer
    /// is sent, counted and logged with its own status, and the connection is kept alive.
    @Test func answeredLaterFromAnotherThreadWhileTheWorkerThreadServesOthers() throws {
        let fixture = DeferredFixture()
        let log = LogRecorder()
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(port: 0, threads: 1), router: fixture.router(), logger: log.logger)
        let port = try server.start()
        defer { server.shutdown() }
        let waiting = try RawConnection(port: port)
        try waiting.sendRequest(method: .POST, path: "/later?n=1", headers: ["Connection": "keep-alive"])
        let deferral = try #require(fixture.deferral("1"))

        let other = try RawConnection(port: port)
        try other.sendRequest(path: "/ping")
        #expect(try other.readResponse().text == "pong")
        #expect(!deferral.isCompleted)
        #expect(eventually { server.metrics.requestsInFlight == 1 })

        var answer = HTTPResponse.text("done", status: 201)
        answer.headers.set("X-Answer", "later")
        #expect(DeferredFixture.complete(deferral, with: answer))
        let response = try waiting.readResponse()
        #expect(response.status == 201)
        #expect(response.text == "done")
        #expect(response.headers["X-Answer"] == "later")
        #expect(!waiting.isPeerClosed)

        // Completed once: a second completion is refused and sends nothing.
        #expect(!deferral.complete(.text("again")))
        try waiting.sendRequest(path: "/ping")
        #expect(try waiting.readResponse().text == "pong")

        #expect(eventually { server.metrics.requestsInFlight == 0 })
        #expect(eventually { server.metrics.count(method: .POST, route: "/later", status: 201) == 1 })
        #expect(eventually { log.messages.contains { $0.hasPrefix("POST /later 201 ") } })
    }

    /// A handler that completes before it returns is answered at once.
    @Test func completedBeforeTheHandlerReturnsIsAnsweredAtOnce() throws {
        let fixture = DeferredFixture()
        try withLiveServer(fixture.router()) { _, client in
            let response = try client.request(.POST, "/now")
            #expect(response.status == 201)
            #expect(response.text == "ready")
        }
        try withTestServer(fixture.router(), transport: .inProcess) { client in
            let response = try client.request(.POST, "/now")
            #expect(response.text == "ready")
        }
    }

    /// An answer completed with another deferred answer (work handed on to a
    /// queue of its own) is sent once that one is completed.
    @Test func completedWithAnAnswerDeferredAgainIsSentWhenThatOneIs() throws {
        let fixture = DeferredFixture()
        try withLiveServer(fixture.router()) { _, client in
            let waiting = try client.connect()
            try waiting.sendRequest(method: .POST, path: "/later?n=outer")
            let outer = try #require(fixture.deferral("outer"))
            let inner = DeferredResponse()
            #expect(DeferredFixture.complete(outer, with: .deferred(inner)))
            #expect(!outer.isCompleted)
            #expect(DeferredFixture.complete(inner, with: .text("handed on", status: 201)))
            let response = try waiting.readResponse()
            #expect(response.status == 201)
            #expect(response.text == "handed on")
            #expect(!outer.complete(.text("again")))
        }
    }

    /// Many requests wait at once on one worker thread; each gets its own
    /// answer, whatever the order they are completed in.
    @Test func manyWaitOnOneWorkerThread() throws {
        let fixture = DeferredFixture()
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threads: 1), router: fixture.router())
        let port = try server.start()
        defer { server.shutdown() }
        let count = 24
        var connections: [RawConnection] = []
        for n in 0..<count {
            let connection = try RawConnection(port: port)
            try connection.sendRequest(method: .POST, path: "/later?n=\(n)")
            connections.append(connection)
        }
        #expect(eventually { fixture.waiting.value.count == count })
        #expect(fixture.handlerThreads.value.count == 1)
        let ping = try RawConnection(port: port)
        try ping.sendRequest(path: "/ping")
        #expect(try ping.readResponse().text == "pong")
        #expect(eventually { server.metrics.requestsInFlight == count })

        let deferrals = fixture.waiting.value
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let n = count - 1 - index
            deferrals["\(n)"]?.complete(.text("answer \(n)"))
        }
        for (n, connection) in connections.enumerated() {
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "answer \(n)")
        }
        #expect(eventually { server.metrics.requestsInFlight == 0 })
    }

    /// A client that leaves while its answer waits: completing it later is
    /// harmless, the request ends (counted, logged as not written) and the
    /// server keeps serving.
    @Test func aClientGoneBeforeTheAnswerIsCleanedUp() throws {
        let fixture = DeferredFixture()
        let log = LogRecorder()
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(port: 0, threads: 1), router: fixture.router(), logger: log.logger)
        let port = try server.start()
        defer { server.shutdown() }
        let leaving = try RawConnection(port: port)
        try leaving.sendRequest(method: .POST, path: "/later?n=gone", headers: ["Connection": "keep-alive"])
        let deferral = try #require(fixture.deferral("gone"))
        leaving.close(reset: true)

        #expect(DeferredFixture.complete(deferral, with: .text(String(repeating: "x", count: 256 * 1024))))
        #expect(eventually { server.metrics.requestsInFlight == 0 })
        #expect(eventually { log.messages.contains { $0.hasPrefix("POST /later ") } })
        #expect(!deferral.complete(.text("again")))

        let other = try RawConnection(port: port)
        try other.sendRequest(path: "/ping")
        #expect(try other.readResponse().text == "pong")
    }

    /// Shutdown waits its grace period for waiting answers, then answers what
    /// is left 503 and closes those connections; a completion after that is refused.
    @Test func shutdownAnswersWhatStillWaits() throws {
        let fixture = DeferredFixture()
        var configuration = HTTPServer.Configuration(port: 0, threads: 1)
        configuration.shutdownGracePeriod = .milliseconds(200)
        let server = HTTPServer(configuration: configuration, router: fixture.router())
        let port = try server.start()
        let waiting = try RawConnection(port: port)
        try waiting.sendRequest(method: .POST, path: "/later?n=1", headers: ["Connection": "keep-alive"])
        let deferral = try #require(fixture.deferral("1"))

        server.shutdown()
        let response = try waiting.readResponse()
        #expect(response.status == 503)
        #expect(response.headers["Connection"]?.lowercased() == "close")
        #expect(response.headers["Retry-After"] == "1")
        #expect(!deferral.complete(.text("late")))
    }

    /// Answered within the grace period, a waiting request gets its own answer.
    @Test func shutdownWaitsForAnAnswerGivenInTheGracePeriod() throws {
        let fixture = DeferredFixture()
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threads: 1), router: fixture.router())
        let port = try server.start()
        let waiting = try RawConnection(port: port)
        try waiting.sendRequest(method: .POST, path: "/later?n=1")
        let deferral = try #require(fixture.deferral("1"))
        let stopped = Shared(false)
        DispatchQueue.global().async {
            server.shutdown()
            stopped.update { $0 = true }
        }
        #expect(DeferredFixture.complete(deferral, with: .text("in time")))
        let response = try waiting.readResponse()
        #expect(response.text == "in time")
        #expect(eventually { stopped.value })
    }

    /// In process (tests that call the router), the answer is waited for.
    @Test func inProcessWaitsForTheAnswer() throws {
        let fixture = DeferredFixture()
        try withTestServer(fixture.router(), transport: .inProcess) { client in
            DispatchQueue.global().async {
                guard let deferral = fixture.deferral("1") else { return }
                deferral.complete(.text("later", status: 202))
            }
            let response = try client.request(.POST, "/later?n=1")
            #expect(response.status == 202)
            #expect(response.text == "later")
        }
    }
}
