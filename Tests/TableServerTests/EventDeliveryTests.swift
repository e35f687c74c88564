import Dispatch
import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import TableModel
import TableRendering
import TableServerTesting
import Testing
@testable import TableServer

/// The store's delivery of events to streams, off the table's lock: every
/// stream gets every change after the point it subscribed at, once, in order —
/// while writers race and streams join — and `deleted` after the last change.
@Suite(.timeLimit(.minutes(1))) struct EventDeliveryTests {
    func makeStore() throws -> TableStore {
        let renderer = try TableRenderer(templatesDirectory: packageRoot.appendingPathComponent("Templates").path)
        let store = TableStore(history: 10_000, renderer: renderer)
        try store.create(Table(id: "t", sections: [Section(id: "s", rows: [Row(id: "r", text: "0")])]))
        return store
    }

    /// Reloads row 0 with a new text: one change.
    func edit(_ store: TableStore, _ number: Int) throws {
        _ = try store.apply("t", ifMatch: nil) { _ in
            Batch(reloadRows: [.init(at: TableIndexPath(0, 0), row: Row(id: "r", text: "\(number)"))])
        }
    }

    /// The `id:` of every event in `text`, in order.
    func ids(_ text: String) -> [Int] {
        text.split(separator: "\n").compactMap { line in line.hasPrefix("id: ") ? Int(line.dropFirst(4)) : nil }
    }

    /// Collects a stream's bytes until `done` holds for them, or 10 s pass.
    func collect(_ stream: EventStream, until done: (String) -> Bool) -> String {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(10)
        while !done(String(decoding: bytes, as: UTF8.self)) && Date() < deadline {
            bytes += stream.takeQueuedBytes()
            if !done(String(decoding: bytes, as: UTF8.self)) { usleep(1_000) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func racingWritersAndJoiningStreamsGetEveryLaterChangeOnceInOrder() throws {
        let store = try makeStore()
        let writers = 4, editsEach = 250, total = writers * editsEach
        let first = EventStream(bufferLimit: 64 << 20)
        try store.subscribe("t", since: 0, stream: first)
        let joined = Mutex<[(since: Int, stream: EventStream)]>([])
        DispatchQueue.concurrentPerform(iterations: writers + 1) { worker in
            if worker == writers {
                // Streams join while the writers write, each from the version it last saw.
                for _ in 0..<20 {
                    let since = (try? store.table("t").version) ?? 0
                    let stream = EventStream(bufferLimit: 64 << 20)
                    try? store.subscribe("t", since: since, stream: stream)
                    joined.withLock { $0.append((since, stream)) }
                    usleep(500)
                }
            } else {
                for number in 0..<editsEach { try? edit(store, worker * editsEach + number) }
            }
        }
        #expect(try store.table("t").version == total)
        #expect(ids(collect(first) { ids($0).count >= total }) == Array(1...total))
        let streams = joined.withLock { $0 }
        #expect(streams.count == 20)
        for (since, stream) in streams {
            let expected = Array((since + 1)..<(total + 1))
            let received = ids(collect(stream) { ids($0).count >= expected.count })
            #expect(received == expected, "joined at \(since)")
        }
        // As a server stopping does: each stream's close action holds its
        // table's handle, which holds the stream, until the stream ends.
        store.closeAllStreams()
        #expect(first.isClosed && streams.allSatisfy { $0.stream.isClosed })
    }

    @Test func deletedComesAfterTheLastChangeAndEndsTheStream() throws {
        let store = try makeStore()
        let stream = EventStream(bufferLimit: 64 << 20)
        try store.subscribe("t", since: 0, stream: stream)
        for number in 1...200 { try edit(store, number) }
        try store.delete("t", ifMatch: nil)
        let text = collect(stream) { $0.contains("event: deleted\n") }
        #expect(ids(text) == Array(1...200))
        #expect(text.hasSuffix("event: deleted\ndata: {\"table\":\"t\"}\n\n"))
        #expect(eventuallyClosed(stream))
        #expect(throws: TableServerError.self) { try store.subscribe("t", since: 0, stream: EventStream()) }
    }

    @Test func closingAllStreamsHandsOverWhatWasQueuedFirst() throws {
        let store = try makeStore()
        let stream = EventStream(bufferLimit: 64 << 20)
        try store.subscribe("t", since: nil, stream: stream)
        for number in 1...300 { try edit(store, number) }
        store.closeAllStreams()
        #expect(stream.isClosed)
        #expect(ids(String(decoding: stream.takeQueuedBytes(), as: UTF8.self)) == Array(1...300))
    }

    func eventuallyClosed(_ stream: EventStream) -> Bool {
        eventually { stream.isClosed }
    }
}
