import Foundation
import Glibc
import MicroHTTPTesting
import Testing

@testable import MicroHTTP

/// One delivery's fan-out (`EventFanOut.send(_:to:)`), with the streams written
/// in batches through an io_uring (`SendRing`) and one `send()` at a time: the
/// clients read the same bytes either way, and the server counts the way each
/// chunk went. The batched cases run with what the kernel's probe found, named
/// in the test's arguments: where it refuses rings they check that the plain
/// path ran instead, and say so there.
@Suite(.serialized, .timeLimit(.minutes(1))) struct EventStreamBatchTests {
    /// What this kernel offers (probed as at start-up), and a pool without rings.
    private static let supports: [SendRingSupport] = [.probe(), .refused]

    /// `kernel.io_uring_disabled` 2 refuses every ring; 0 and 1 let this
    /// process, run by root or by a member of the allowed group, make one.
    private static var kernelRefusesRings: Bool {
        (try? String(contentsOfFile: "/proc/sys/kernel/io_uring_disabled", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) == "2"
    }

    /// `count` clients of /events, each past its first event, their streams
    /// left to suspend so that what is sent to them can be written directly.
    private static func connect(_ count: Int, to fixture: StreamFixture, with client: TestClient) throws
        -> [RawConnection]
    {
        let connections = try (0..<count).map { _ in try fixture.connect(client) }
        #expect(eventually { fixture.streams.value.count == count })
        #expect(eventually { fixture.streams.value.allSatisfy(\.isSuspended) })
        return connections
    }

    private static func event(_ index: Int, size: Int = 8_000) -> ServerSentEvent {
        ServerSentEvent(
            id: "\(index)", data: String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: size))
    }

    /// The chunks the streams' sockets took by each way, once every stream
    /// has ended: batches exactly where the pool has rings, direct writes otherwise.
    private static func expectWays(of server: HTTPServer, with support: SendRingSupport) {
        #expect(eventually { server.metrics.openEventStreams == 0 })
        let written = server.metrics.eventChunksWritten
        if support == .supported {
            #expect(written.batched > 0, "the kernel allows rings: batches were sent")
        } else {
            #expect(written.batched == 0, "no ring (\(support)): no batch was sent")
            #expect(written.direct > 0, "no ring (\(support)): each stream was written with a send() of its own")
        }
    }

    /// The probe decides the path: a pool sends batches exactly when it found
    /// the send operation, and never asks the kernel for a ring otherwise.
    @Test func theProbeDecidesWhetherDeliveriesTakeRings() {
        for support in [SendRingSupport.refused, .noSendOperation, .switchedOff] {
            #expect(SendRings(support: support).take() == nil)
            #expect(SendRings(support: support).availability == support)
        }
        let probed = SendRingSupport.probe()
        #expect((SendRings(support: probed).take() != nil) == (probed == .supported), "probe: \(probed)")
        if Self.kernelRefusesRings {
            #expect(probed == .refused)
        }
    }

    /// The fan-out the server is told to use (`--ablate send-ring`): unbatched
    /// never asks for a ring; batched is the process's probed pool.
    @Test func theServerChoosesTheFanOut() {
        #expect(EventFanOut(batching: false).support == .switchedOff)
        #expect(EventFanOut(batching: false).rings.take() == nil)
        #expect(EventFanOut(batching: true).rings === SendRings.shared)
    }

    /// Each of 20 clients reads each of 300 chunks whole, in order.
    @Test(arguments: supports) func manyStreamsTakeEachChunkInOrder(support: SendRingSupport) throws {
        let rings = SendRings(support: support)
        let fixture = StreamFixture()
        try withLiveServer(fixture.router()) { server, client in
            let connections = try Self.connect(20, to: fixture, with: client)
            var expected: [UInt8] = []
            for index in 0..<300 {
                let events = [
                    ServerSentEvent(id: "\(index)", data: "a\(index)").bytes, ServerSentEvent.comment("c\(index)"),
                ]
                EventStream.send(EventChunk(events), to: fixture.streams.value, rings: rings)
                expected += events.joined()
            }
            for connection in connections {
                let received = connection.readStream { $0.count >= expected.count }
                #expect(received == expected)
            }
            fixture.streams.value.forEach { $0.close() }
            Self.expectWays(of: server, with: support)
        }
    }

    /// 8 MB of 8 KB events to four clients that read nothing until the end:
    /// their sockets fill, so writes are taken in part or not at all and the
    /// rest waits, queued behind what the socket did not take. Each client
    /// then reads every byte in order, and the end of the stream.
    @Test(arguments: supports) func fullSocketsGetTheRestInOrder(support: SendRingSupport) throws {
        let rings = SendRings(support: support)
        let fixture = StreamFixture(bufferLimit: 64 << 20)
        try withLiveServer(fixture.router()) { server, client in
            var connections = try (0..<3).map { _ in try fixture.connect(client) }
            let small = try RawConnection(port: server.port, receiveBuffer: 4096)
            try small.sendRequest(path: "/events", headers: ["Connection": "keep-alive"])
            #expect(try small.readHead().status == 200)
            _ = small.readStream { String(decoding: $0, as: UTF8.self).hasSuffix("\n\n") }
            connections.append(small)
            #expect(eventually { fixture.streams.value.count == 4 })
            #expect(eventually { fixture.streams.value.allSatisfy(\.isSuspended) })
            let events = (0..<1_000).map { Self.event($0) }
            for event in events {
                EventStream.send(EventChunk([event.bytes]), to: fixture.streams.value, rings: rings)
            }
            fixture.streams.value.forEach { $0.close() }
            for connection in connections {
                let received = connection.readStream(timeout: .seconds(60)) { _ in false }
                #expect(received == events.flatMap(\.bytes))
                #expect(connection.sawLastChunk)
            }
            Self.expectWays(of: server, with: support)
        }
    }

    /// A ring's sends report, socket by socket, what `send()` would: all taken,
    /// nothing taken from a full socket, a peer gone, a descriptor not open.
    @Test func aRingReportsEachSocketsOutcome() throws {
        let support = SendRingSupport.probe()
        guard support == .supported else {
            if support == .refused {
                let refused = SendRing() == nil
                #expect(refused)
            }
            return
        }
        let ring = try #require(SendRing())
        #expect(ring.capacity == Int(SendRing.entries))
        func pair() -> (Int32, Int32) {
            var fds: [Int32] = [0, 0]
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
            return (fds[0], fds[1])
        }
        let open = pair()
        let full = pair()
        let gone = pair()
        defer { [open.0, open.1, full.0, full.1, gone.0].forEach { _ = Glibc.close($0) } }
        var filler = [UInt8](repeating: 0, count: 65_536)
        while Glibc.send(full.0, &filler, filler.count, Int32(MSG_DONTWAIT)) > 0 {}
        Glibc.close(gone.1)
        let bytes = Array("data: ring\n\n".utf8)
        var results = [Int](repeating: 0, count: ring.capacity)
        ring.send(bytes, to: [open.0, full.0, gone.0, -1, open.0], results: &results)
        #expect(!ring.isBroken)
        let expected: [Int] = [bytes.count, -Int(EAGAIN), -Int(EPIPE), -Int(EBADF), bytes.count]
        #expect(Array(results[0..<5]) == expected)
        var received = [UInt8](repeating: 0, count: 64)
        #expect(recv(open.1, &received, received.count, Int32(MSG_DONTWAIT)) == 2 * bytes.count)
        let twice = bytes + bytes
        #expect(Array(received[0..<twice.count]) == twice)
    }

    /// Each client's outcome of a batch, chosen by the test, whatever the socket could take.
    private enum Outcome {
        case all
        /// Writes nothing and says the socket was full.
        case none
        /// Writes the first bytes only.
        case part(Int)
        /// Writes the first bytes and says the outcome was lost (the ring broke).
        case lost(Int)
        /// Writes nothing and says the socket failed with this errno.
        case failed(Int32)
    }

    /// A stand-in for a ring that writes what it reports, with each client's
    /// outcome chosen by the test: clients are known by their order in the
    /// first batch, where every stream takes part.
    private final class ChosenOutcomes: BatchSender {
        let capacity = 8
        private(set) var isBroken = false
        private var clients: [Int32: Int] = [:]
        private var calls = 0
        private let choose: (_ client: Int, _ call: Int) -> Outcome

        init(_ choose: @escaping (_ client: Int, _ call: Int) -> Outcome) {
            self.choose = choose
        }

        func send(_ bytes: [UInt8], to sockets: [Int32], results: inout [Int]) {
            for (position, socket) in sockets.enumerated() {
                let client = clients[socket] ?? position
                clients[socket] = client
                func write(_ count: Int) -> Int {
                    bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
                }
                switch choose(client, calls) {
                case .all:
                    results[position] = write(bytes.count)
                case .none:
                    results[position] = -Int(EAGAIN)
                case .part(let count):
                    results[position] = write(count)
                case .lost(let count):
                    _ = write(count)
                    results[position] = -Int(EIO)
                    isBroken = true
                case .failed(let code):
                    results[position] = -Int(code)
                }
            }
            calls += 1
        }
    }

    /// A claimed write the socket took none of is queued before what came
    /// meanwhile, and one it took part of is finished first: with every
    /// second batch refused to one client and every third taken in part by
    /// another, each client reads every event whole and in order.
    @Test func refusedAndPartWritesReachTheClientInOrder() throws {
        let fixture = StreamFixture()
        try withLiveServer(fixture.router()) { server, client in
            let connections = try Self.connect(3, to: fixture, with: client)
            let sender = ChosenOutcomes { client, call in
                switch client {
                case 1 where call % 2 == 1: .none
                case 2 where call % 3 == 2: .part(7)
                default: .all
                }
            }
            var expected: [UInt8] = []
            for index in 0..<200 {
                let events = [Self.event(index, size: 40).bytes, ServerSentEvent.comment("c\(index)")]
                #expect(EventStream.send(EventChunk(events), to: fixture.streams.value, batchedBy: sender) == 3)
                expected += events.joined()
                // Now and then a pause, so that finished writes hand their connection back and are claimed again.
                if index % 10 == 0 {
                    Thread.sleep(forTimeInterval: 0.01)
                }
            }
            fixture.streams.value.forEach { $0.close() }
            for connection in connections {
                let received = connection.readStream(timeout: .seconds(30)) { _ in false }
                #expect(received == expected)
                #expect(connection.sawLastChunk)
            }
            #expect(eventually { server.metrics.openEventStreams == 0 })
        }
    }

    /// A socket that fails (the client gone) drops its client in the
    /// delivery that found it: the stream is closed when the delivery returns,
    /// and its close actions run then, not once libmicrohttpd has found the
    /// connection gone too. The other client is served as usual.
    @Test func aSocketThatFailsDropsItsClientAtOnce() throws {
        let fixture = StreamFixture()
        try withLiveServer(fixture.router()) { server, client in
            let connections = try Self.connect(2, to: fixture, with: client)
            let streams = fixture.streams.value
            let sender = ChosenOutcomes { client, _ in client == 1 ? .failed(EPIPE) : .all }
            let first = [Self.event(0, size: 40).bytes]
            #expect(EventStream.send(EventChunk(first), to: streams, batchedBy: sender) == 2)
            #expect(streams[1].isClosed)
            #expect(!streams[0].isClosed)
            #expect(eventually { fixture.closed.value == 1 })
            #expect(!streams[1].send(Self.event(1, size: 40).bytes))
            _ = connections[1].readStream(timeout: .seconds(10)) { _ in false }
            #expect(connections[1].isPeerClosed)
            #expect(!connections[1].sawLastChunk)
            streams[0].close()
            #expect(connections[0].readStream(timeout: .seconds(30)) { _ in false } == Array(first.joined()))
            #expect(connections[0].sawLastChunk)
            #expect(eventually { server.metrics.openEventStreams == 0 })
        }
    }

    /// A write whose outcome the ring lost may have sent any part of the
    /// chunk: that client is cut off (it reconnects and replays), and the
    /// others are served as usual.
    @Test func aLostOutcomeCutsTheClientOff() throws {
        let fixture = StreamFixture()
        try withLiveServer(fixture.router()) { server, client in
            let connections = try Self.connect(2, to: fixture, with: client)
            let first = [Self.event(0, size: 40).bytes]
            let sender = ChosenOutcomes { client, _ in client == 1 ? .lost(3) : .all }
            #expect(EventStream.send(EventChunk(first), to: fixture.streams.value, batchedBy: sender) == 2)
            #expect(sender.isBroken)
            let rings = SendRings(support: .probe())
            #expect(eventually { fixture.closed.value == 1 })
            let second = [Self.event(1, size: 40).bytes]
            EventStream.send(EventChunk(second), to: fixture.streams.value, rings: rings)
            fixture.streams.value[0].close()
            #expect(connections[0].readStream(timeout: .seconds(30)) { _ in false } == Array((first + second).joined()))
            #expect(connections[0].sawLastChunk)
            _ = connections[1].readStream(timeout: .seconds(10)) { _ in false }
            #expect(connections[1].isPeerClosed)
            #expect(!connections[1].sawLastChunk)
            #expect(eventually { server.metrics.openEventStreams == 0 })
        }
    }
}
