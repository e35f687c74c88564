import Foundation
import MicroHTTPTesting
import Testing

@testable import MicroHTTP

/// Events written by the sender to a suspended stream's socket, and the rest
/// of a chunk the socket took only part of (`EventStream`, the direct write);
/// the server's count of direct writes shows that path ran.
@Suite(.serialized, .timeLimit(.minutes(1))) struct EventStreamDirectWriteTests {
    /// A client with a receive buffer of 4 KiB that has read the first event.
    private func connectSmallReader(_ fixture: StreamFixture, port: Int) throws -> RawConnection {
        let connection = try RawConnection(port: port, receiveBuffer: 4096)
        try connection.sendRequest(path: "/events", headers: ["Connection": "keep-alive"])
        #expect(try connection.readHead().status == 200)
        let first = connection.readStream { String(decoding: $0, as: UTF8.self).hasSuffix("\n\n") }
        #expect(String(decoding: first, as: UTF8.self) == "event: hello\ndata: first\n\n")
        #expect(eventually { fixture.streams.value.count == 1 })
        return connection
    }

    /// A live server whose streams may hold 64 MiB, and the stream of a small
    /// reader left to suspend, so that what is sent to it goes out directly.
    private func withSuspendedSmallReader(
        configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
        _ body: (HTTPServer, RawConnection, EventStream, StreamFixture) throws -> Void
    ) throws {
        let fixture = StreamFixture(bufferLimit: 64 << 20)
        try withLiveServer(fixture.router(), configuration: configuration) { server, _ in
            let connection = try connectSmallReader(fixture, port: server.port)
            let stream = try #require(fixture.streams.value.first)
            #expect(eventually { stream.isSuspended })
            try body(server, connection, stream, fixture)
        }
    }

    /// Closes `stream` and expects the client to read `events` whole, in order,
    /// then the last chunk, and the server to count no open stream and at
    /// least one chunk written directly.
    private func expectEveryByteThenTheEnd(
        of events: [ServerSentEvent], closing stream: EventStream, on connection: RawConnection, server: HTTPServer
    ) {
        stream.close()
        let received = connection.readStream(timeout: .seconds(60)) { _ in false }
        #expect(received == events.flatMap(\.bytes))
        #expect(connection.sawLastChunk)
        #expect(eventually { server.metrics.openEventStreams == 0 })
        #expect(server.metrics.eventChunksWritten.direct > 0)
    }

    private static func event(_ index: Int) -> ServerSentEvent {
        ServerSentEvent(
            id: "\(index)", data: String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: 8_000))
    }

    /// 8 MB of events of 8 KB to a client that does not read fill its socket
    /// (4 MB at most, `net.ipv4.tcp_wmem`), so one is taken in part: its rest
    /// goes out before anything queued behind it and before the end of the
    /// stream, and the client reads every byte in order.
    @Test func theRestOfAChunkGoesOutBeforeWhatFollows() throws {
        try withSuspendedSmallReader { server, connection, stream, _ in
            let events = (0..<1_000).map(Self.event)
            for event in events {
                #expect(stream.send(event))
            }
            expectEveryByteThenTheEnd(of: events, closing: stream, on: connection, server: server)
        }
    }

    /// One chunk handed to several streams reaches each whole and in order.
    @Test func oneChunkForManyStreamsReachesEachInOrder() throws {
        let fixture = StreamFixture()
        try withLiveServer(fixture.router()) { server, client in
            let connections = try (0..<3).map { _ in try fixture.connect(client) }
            #expect(eventually { fixture.streams.value.count == 3 && fixture.streams.value.allSatisfy(\.isSuspended) })
            for index in 0..<300 {
                let chunk = EventChunk([
                    ServerSentEvent(id: "\(index)", data: "a\(index)").bytes, ServerSentEvent.comment("c\(index)"),
                ])
                for stream in fixture.streams.value {
                    #expect(stream.send(chunk))
                }
            }
            let expected = (0..<300).flatMap {
                ServerSentEvent(id: "\($0)", data: "a\($0)").bytes + ServerSentEvent.comment("c\($0)")
            }
            for connection in connections {
                let received = connection.readStream { $0.count >= expected.count }
                #expect(received == expected)
            }
            fixture.streams.value.forEach { $0.close() }
            #expect(eventually { server.metrics.openEventStreams == 0 })
            #expect(server.metrics.eventChunksWritten.direct > 0)
            #expect(server.metrics.eventChunksWritten.batched == 0)
        }
    }

    /// Chunks of tens of KiB (a paced delivery under fast edits) are written
    /// directly, mostly in part to a client with a small receive buffer, and
    /// chunks over `directWriteLimit` go through libmicrohttpd: taking turns,
    /// they reach the client whole and in order, and the stream then ends.
    @Test func largeChunksEitherWayReachTheClientInOrder() throws {
        try withSuspendedSmallReader { server, connection, stream, _ in
            let perLimit = EventChunk.directWriteLimit / 8_000
            var events: [ServerSentEvent] = []
            for round in 0..<6 {
                let count = round % 2 == 0 ? 5 : perLimit + 2
                let batch = (events.count..<(events.count + count)).map(Self.event)
                #expect(stream.send(EventChunk(batch.map(\.bytes))))
                events += batch
                Thread.sleep(forTimeInterval: 0.02)
            }
            expectEveryByteThenTheEnd(of: events, closing: stream, on: connection, server: server)
        }
    }

    /// A client that stops reading in the middle of a chunk is cut off once its
    /// socket has taken nothing for the connection timeout.
    @Test func aClientStuckInTheMiddleOfAChunkIsCutOff() throws {
        let configuration = HTTPServer.Configuration(connectionTimeout: .seconds(1))
        try withSuspendedSmallReader(configuration: configuration) { server, connection, stream, fixture in
            // The client may be cut off while these are sent (a slow build takes
            // longer than the timeout to send them): later ones are refused.
            var index = 0
            while index < 1_000, stream.send(Self.event(index)) {
                index += 1
            }
            #expect(eventually(timeout: .seconds(10)) { fixture.closed.value == 1 })
            #expect(stream.isClosed)
            #expect(eventually { server.metrics.openEventStreams == 0 && server.metrics.requestsInFlight == 0 })
            _ = connection.readStream(timeout: .seconds(10)) { _ in false }
            #expect(connection.isPeerClosed)
            #expect(!connection.sawLastChunk)
        }
    }
}
