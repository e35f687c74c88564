import MicroHTTPTesting
import Testing

@testable import MicroHTTP

/// A client that leaves its event stream is noticed at once, whether or not
/// anything is being sent to it (`ClientWatch`).
@Suite(.serialized, .timeLimit(.minutes(1))) struct ClientWatchTests {
    /// A client closing its connection while its stream is idle (suspended,
    /// libmicrohttpd not looking at it) is noticed at once, with nothing
    /// written to it: the stream is closed and its close actions run, long
    /// before the first heartbeat (`ClientWatch`). Closed abortively too.
    @Test(arguments: [false, true]) func aClientLeavingAnIdleStreamIsNoticedWithNothingSent(reset: Bool) throws {
        let fixture = StreamFixture()
        let configuration = HTTPServer.Configuration(heartbeat: .seconds(3600))
        try withLiveServer(fixture.router(), configuration: configuration) { server, client in
            let connections = try (0..<2).map { _ in try fixture.connect(client) }
            let streams = fixture.streams.value
            #expect(eventually { streams.allSatisfy(\.isSuspended) })
            connections[0].close(reset: reset)
            #expect(eventually(timeout: .seconds(5)) { streams[0].isClosed && fixture.closed.value == 1 })
            #expect(eventually { server.metrics.openEventStreams == 1 })
            #expect(!streams[1].isClosed)
            #expect(server.metrics.eventChunksWritten.direct == 0 && server.metrics.eventChunksWritten.batched == 0)
            #expect(streams[1].send(ServerSentEvent(data: "still here")))
            let after = connections[1].readStream { String(decoding: $0, as: UTF8.self).hasSuffix("\n\n") }
            #expect(String(decoding: after, as: UTF8.self) == "data: still here\n\n")
        }
    }
}
