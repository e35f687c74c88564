import Synchronization

/// Event streams made a batch at a time, handed out by ``EventStream/reserved()``.
///
/// A stream made when its client subscribes lies among that connection's other
/// allocations, libmicrohttpd's 32 KiB connection pool among them, so the
/// streams of a thousand subscribers lie on a thousand pages, and a delivery,
/// which reaches each stream in turn between two `send()`s, pays for a page
/// not yet translated at every one. Made one after another, the stream objects
/// mostly come from neighbouring memory and share pages; the room freed by the
/// streams of clients that left is taken by the next batches, whose streams
/// again lie beside each other (docs/ARCHITECTURE.md, "Concurrency").
final class StreamReserve: Sendable {
    static let shared = StreamReserve()

    /// Streams made at once when the reserve runs out.
    static let batch = 128

    /// Streams not handed out yet, the first made last.
    private let streams = Mutex<[EventStream]>([])

    /// A new stream with the default buffer limit.
    func take() -> EventStream {
        streams.withLock { streams in
            if streams.isEmpty {
                streams = (0..<Self.batch).map { _ in EventStream() }.reversed()
            }
            return streams.removeLast()
        }
    }
}

extension EventStream {
    /// A new stream with the default buffer limit, made with others in a batch
    /// so that the streams one delivery reaches lie together in memory
    /// (``StreamReserve``). Use it for streams made per client.
    public static func reserved() -> EventStream {
        StreamReserve.shared.take()
    }
}
