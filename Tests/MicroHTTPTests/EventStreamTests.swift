import Foundation
import Glibc
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import Testing

/// A router with one event stream route; the streams it opened are kept.
final class StreamFixture: Sendable {
    let streams = Shared<[EventStream]>([])
    let closed = Shared(0)
    /// The threads that answered /events: each serves its stream from then on.
    let streamThreads = Shared<Set<pid_t>>([])
    let bufferLimit: Int

    init(bufferLimit: Int = 1 << 20) {
        self.bufferLimit = bufferLimit
    }

    func router() -> Router {
        var router = Router()
        router.add(.GET, "/events") { [self] _ in
            let stream = EventStream(bufferLimit: bufferLimit)
            stream.onClose { [closed] in closed.update { $0 += 1 } }
            stream.send(ServerSentEvent(event: "hello", data: "first"))
            streams.update { $0.append(stream) }
            streamThreads.update { _ = $0.insert(ThreadState.current()) }
            return HTTPResponse(
                headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"],
                body: .stream(stream)
            )
        }
        router.add(.GET, "/ping") { _ in .text("pong") }
        return router
    }

    /// Connects a client to /events and reads up to the first event.
    func connect(_ client: TestClient) throws -> RawConnection {
        let connection = try client.connect()
        try connection.sendRequest(path: "/events", headers: ["Connection": "keep-alive"])
        let head = try connection.readHead()
        #expect(head.status == 200)
        #expect(head.headers["Content-Type"] == "text/event-stream")
        #expect(head.headers["Transfer-Encoding"] == "chunked")
        let first = connection.readStream { String(decoding: $0, as: UTF8.self).hasSuffix("\n\n") }
        #expect(String(decoding: first, as: UTF8.self) == "event: hello\ndata: first\n\n")
        return connection
    }
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct EventStreamTests {
    /// A client leaving its event stream is how a stream ends: logged as
    /// `termination=client-left`, not as an error.
    @Test func aClientLeavingIsLoggedAsTheStreamsEnd() throws {
        let fixture = StreamFixture()
        let log = LogRecorder()
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(port: 0), router: fixture.router(), logger: log.logger)
        let port = try server.start()
        defer { server.shutdown() }
        let connection = try fixture.connect(TestClient(port: port))
        connection.close()
        // Later events find the connection gone, and the request ends.
        #expect(
            eventually {
                fixture.streams.value.first?.send(ServerSentEvent(data: "after")) == false
                    || log.messages.contains { $0.hasPrefix("GET /events 200") }
            })
        #expect(eventually { log.messages.contains { $0.hasPrefix("GET /events 200") } })
        let index = try #require(log.messages.firstIndex { $0.hasPrefix("GET /events 200") })
        #expect(log.metadata[index]["termination"] == "client-left")
    }

    @Test func eventsArriveInOrder() throws {
        let fixture = StreamFixture()
        try withLiveServer(fixture.router()) { _, client in
            let connection = try fixture.connect(client)
            let stream = try #require(fixture.streams.value.first)
            for index in 0..<500 {
                #expect(stream.send(ServerSentEvent(id: "\(index)", data: "\(index)")))
            }
            let received = connection.readStream { String(decoding: $0, as: UTF8.self).hasSuffix("data: 499\n\n") }
            let ids = String(decoding: received, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("data: ") }
            #expect(ids == (0..<500).map { "data: \($0)" })
        }
    }

    /// A stream polled while empty keeps its worker running (state `R`) all the
    /// time; an idle worker sleeps in `epoll_wait` (`S`). Whether each worker
    /// holding a stream sleeps is the kernel's word, not a CPU budget over a
    /// fixed time, so load on the machine and sanitizers do not change it.
    @Test func anIdleStreamCostsNoCPU() throws {
        let fixture = StreamFixture()
        try withLiveServer(fixture.router()) { _, client in
            let connections = try (0..<3).map { _ in try fixture.connect(client) }
            let workers = fixture.streamThreads.value
            #expect(!workers.isEmpty)
            #expect(workers.allSatisfy { ThreadState($0)?.name.hasPrefix("MHD-worker") == true })
            let asleep = ThreadState.asleepCounts(workers, samples: 50)
            #expect(workers.allSatisfy { asleep[$0, default: 0] >= 45 }, "asleep in \(asleep) of 50 looks")
            #expect(connections.allSatisfy { !$0.isPeerClosed })
        }
    }

    @Test func theProbeTellsASpinningThreadFromASleepingOne() throws {
        // The threads share nothing but an atomic flag: no lock to sleep on.
        final class Flag: Sendable { let raised = Atomic(false) }
        let stop = Flag()
        let ids = Shared<[String: pid_t]>([:])
        for (name, spins) in [("wtv-spinning", true), ("wtv-sleeping", false)] {
            let thread = Thread {
                ids.update { $0[name] = ThreadState.current() }
                while !stop.raised.load(ordering: .relaxed) {
                    if !spins { usleep(100_000) }
                }
            }
            thread.name = name
            thread.start()
        }
        defer { stop.raised.store(true, ordering: .relaxed) }
        #expect(eventually { ids.value.count == 2 })
        let spinning = try #require(ids.value["wtv-spinning"]), sleeping = try #require(ids.value["wtv-sleeping"])
        let asleep = ThreadState.asleepCounts([spinning, sleeping], samples: 50)
        #expect(asleep[spinning, default: 0] < 25, "asleep in \(asleep) of 50 looks")
        #expect(asleep[sleeping, default: 0] >= 45, "asleep in \(asleep) of 50 looks")
    }

    @Test func closingTheStreamEndsTheResponse() throws {
        let fixture = StreamFixture()
        try withLiveServer(fixture.router()) { server, client in
            let connection = try fixture.connect(client)
            let stream = try #require(fixture.streams.value.first)
            stream.send(ServerSentEvent(event: "deleted", data: "{}"))
            stream.close()
            #expect(!stream.send([1]))
            let rest = connection.readStream { _ in false }
            #expect(String(decoding: rest, as: UTF8.self) == "event: deleted\ndata: {}\n\n")
            #expect(connection.sawLastChunk)
            #expect(eventually { fixture.closed.value == 1 })
            #expect(eventually { server.metrics.openEventStreams == 0 && server.metrics.requestsInFlight == 0 })
        }
    }

    @Test func aClientGoingAwayClosesTheStream() throws {
        let fixture = StreamFixture()
        let configuration = HTTPServer.Configuration(heartbeat: .milliseconds(200))
        try withLiveServer(fixture.router(), configuration: configuration) { server, client in
            let connection = try fixture.connect(client)
            let heartbeat = connection.readStream(timeout: .seconds(5)) { !$0.isEmpty }
            #expect(String(decoding: heartbeat, as: UTF8.self) == ": keep-alive\n\n")
            let stream = try #require(fixture.streams.value.first)
            #expect(server.metrics.openEventStreams == 1)
            connection.close()
            #expect(eventually { stream.isClosed && fixture.closed.value == 1 })
            #expect(eventually { server.metrics.openEventStreams == 0 && server.metrics.requestsInFlight == 0 })
            #expect(!stream.send([1]))
        }
    }

    @Test func aClientThatStopsReadingIsDropped() throws {
        let fixture = StreamFixture(bufferLimit: 64 * 1024)
        try withLiveServer(fixture.router()) { server, client in
            let connection = try fixture.connect(client)
            let stream = try #require(fixture.streams.value.first)
            let event = ServerSentEvent(data: String(repeating: "x", count: 1_000))
            var accepted = 0
            while stream.send(event), accepted < 100_000 {
                accepted += 1
            }
            #expect(accepted < 100_000)
            #expect(stream.isClosed)
            #expect(eventually { fixture.closed.value == 1 })
            _ = connection.readStream(timeout: .seconds(10)) { _ in false }
            #expect(connection.isPeerClosed)
            #expect(!connection.sawLastChunk)
            #expect(eventually { server.metrics.openEventStreams == 0 && server.metrics.requestsInFlight == 0 })
        }
    }

    @Test func headOnAStreamRouteSendsHeadersOnly() throws {
        let fixture = StreamFixture()
        try withLiveServer(fixture.router()) { server, client in
            let response = try client.execute(method: .HEAD, path: "/events")
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(eventually { fixture.closed.value == 1 && server.metrics.openEventStreams == 0 })
        }
    }

    @Test func shutdownWithOpenStreamsEndsThemAndReturns() throws {
        let fixture = StreamFixture()
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0), router: fixture.router())
        try server.start()
        let client = try (0..<3).map { _ in
            let connection = try RawConnection(port: server.port)
            try connection.sendRequest(path: "/events")
            return connection
        }
        for connection in client {
            #expect(try connection.readHead().status == 200)
        }
        #expect(eventually { fixture.streams.value.count == 3 })
        server.shutdown()
        #expect(eventually { fixture.closed.value == 3 })
        for connection in client {
            let rest = connection.readStream { _ in false }
            #expect(String(decoding: rest, as: UTF8.self) == "event: hello\ndata: first\n\n")
            #expect(connection.sawLastChunk)
            #expect(connection.waitForClose())
        }
        #expect(throws: TestClientError.self) { try RawConnection(port: server.port) }
    }

    @Test func inProcessTransportReturnsWhatWasQueued() throws {
        let fixture = StreamFixture()
        try withTestServer(fixture.router(), transport: .inProcess) { client in
            let response = try client.execute(path: "/events")
            #expect(response.status == 200)
            #expect(response.text == "event: hello\ndata: first\n\n")
            #expect(eventually { fixture.closed.value == 1 })
        }
    }

    @Test func closeActionsMayTakeALockTheSenderHolds() {
        let stream = EventStream(bufferLimit: 4)
        let subscribers = Shared(1)
        stream.onClose { subscribers.update { $0 -= 1 } }
        #expect(stream.send([1, 2, 3, 4, 5]))
        #expect(stream.send([1, 2, 3, 4, 5]))
        let accepted = subscribers.update { _ in stream.send([1, 2, 3, 4, 5]) }
        #expect(!accepted)
        #expect(stream.isClosed)
        #expect(eventually { subscribers.value == 0 })
        let late = Shared(false)
        stream.onClose { late.update { $0 = true } }
        #expect(eventually { late.value })
    }

    @Test func severalEventsAreQueuedInOrderUnderTheSameBound() {
        let stream = EventStream(bufferLimit: 4)
        #expect(stream.send(contentsOf: [Array("ab".utf8), [], Array("cd".utf8)]))
        #expect(stream.takeQueuedBytes() == Array("abcd".utf8))
        // The first is written, the second waits within the bound, the third finds
        // 5 bytes waiting behind the first: the client is dropped, nothing after it queued.
        #expect(!stream.send(contentsOf: [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1], [2]]))
        #expect(stream.isClosed)
        #expect(stream.takeQueuedBytes().isEmpty)
        #expect(!stream.send(contentsOf: [[1]]))
    }

    @Test func queuedBytesCanBeTakenWithoutAConnection() {
        let stream = EventStream()
        #expect(stream.send(Array("a".utf8)))
        #expect(stream.send(ServerSentEvent(data: "b")))
        #expect(stream.takeQueuedBytes() == Array("adata: b\n\n".utf8))
        #expect(stream.takeQueuedBytes().isEmpty)
        stream.close()
        #expect(!stream.send([1]))
    }

    @Test func whatWaitsBehindTheEventBeingWrittenIsBounded() {
        let stream = EventStream(bufferLimit: 10)
        #expect(stream.send([UInt8](repeating: 1, count: 100)))
        #expect(stream.send([UInt8](repeating: 2, count: 50)))
        #expect(!stream.send([3]))
        #expect(stream.isClosed)
    }

    /// Past the bound, bytes that wait while the client's socket has room wait
    /// for the server (libmicrohttpd has not written them yet), not for the
    /// client: a prompt reader is not dropped for them, up to four times the bound.
    @Test func aPromptReaderIsNotDroppedForWhatTheServerHasNotWrittenYet() throws {
        let fixture = StreamFixture(bufferLimit: 64 * 1024)
        try withLiveServer(fixture.router()) { _, client in
            let connection = try fixture.connect(client)
            let stream = try #require(fixture.streams.value.first)
            let event = [UInt8](repeating: UInt8(ascii: "x"), count: 96 * 1024)
            // Over the direct write's limit, so queued for libmicrohttpd in one
            // lock: 192 KiB wait behind the first event before it writes any.
            let accepted = stream.send(EventChunk(Array(repeating: event, count: 4)))
            #expect(accepted)
            let received = connection.readStream { $0.count >= 4 * event.count }
            #expect(received.count == 4 * event.count)
            #expect(!stream.isClosed)
            // More than four times the bound waiting drops the client even so.
            let acceptedOverFour = stream.send(EventChunk(Array(repeating: event, count: 8)))
            #expect(!acceptedOverFour)
            #expect(stream.isClosed)
        }
    }

    @Test func anEventLargerThanTheLimitReachesAPromptReader() throws {
        let fixture = StreamFixture(bufferLimit: 64 * 1024)
        try withLiveServer(fixture.router()) { _, client in
            let connection = try fixture.connect(client)
            let stream = try #require(fixture.streams.value.first)
            let large = ServerSentEvent(id: "1", data: String(repeating: "x", count: 1 << 20))
            // Behind a small event still queued: the bound is on what waits, not on one event.
            #expect(stream.send(ServerSentEvent.comment("ahead")))
            #expect(stream.send(large))
            #expect(stream.send(ServerSentEvent(id: "2", data: "after")))
            let received = connection.readStream { String(decoding: $0, as: UTF8.self).hasSuffix("data: after\n\n") }
            #expect(
                received.count == ServerSentEvent.comment("ahead").count + large.bytes.count
                    + ServerSentEvent(id: "2", data: "after").bytes.count)
            #expect(!stream.isClosed)
        }
    }
}
