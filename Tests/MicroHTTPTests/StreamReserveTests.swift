import Dispatch
import MicroHTTP
import Synchronization
import Testing

/// `EventStream.reserved()`: streams made a batch at a time are each new, and
/// handed out once, from any thread.
struct StreamReserveTests {
    /// More streams than two batches: every one a stream of its own, open,
    /// with the default buffer limit.
    @Test func reservedStreamsAreNewAndDistinct() {
        let streams = (0..<300).map { _ in EventStream.reserved() }
        #expect(Set(streams.map(ObjectIdentifier.init)).count == 300)
        for stream in streams {
            #expect(stream.bufferLimit == EventStream().bufferLimit)
            #expect(stream.send(ServerSentEvent(event: "hello", data: "first").bytes))
        }
    }

    /// Threads taking streams at once never get the same one.
    @Test func threadsTakingAtOnceGetDistinctStreams() {
        // The streams are kept, so that no address is freed and made again.
        let taken = Mutex<[EventStream]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let mine = (0..<100).map { _ in EventStream.reserved() }
            taken.withLock { $0 += mine }
        }
        let all = taken.withLock { $0 }
        #expect(all.count == 800)
        #expect(Set(all.map(ObjectIdentifier.init)).count == 800)
    }
}
