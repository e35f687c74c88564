/// How one delivery's chunk reaches many streams: batched through io_uring
/// where the kernel allows it, or one `send()` a stream. The server that owns
/// the streams decides (``HTTPServer/Configuration/eventFanOut``); no library
/// reads the environment for it.
public struct EventFanOut: Sendable {
    let rings: SendRings

    /// Batched where the kernel allows it: the process's pool of rings, the
    /// kernel probed once, at its first use (``SendRingSupport/probe()``).
    public static var batched: EventFanOut { EventFanOut(rings: .shared) }

    /// One `send()` a stream, rings never asked for (``SendRingSupport/switchedOff``):
    /// `make bench`'s ablation step, which measures what rings buy.
    public static let unbatched = EventFanOut(rings: SendRings(support: .switchedOff))

    /// ``batched`` when `batching`, else ``unbatched``.
    public init(batching: Bool) {
        self = batching ? .batched : .unbatched
    }

    init(rings: SendRings) {
        self.rings = rings
    }

    /// Hands `chunk` to each of `streams`, in order, as ``EventStream/send(_:)-(EventChunk)``
    /// does: one delivery's fan-out.
    public func send(_ chunk: EventChunk, to streams: [EventStream]) {
        EventStream.send(chunk, to: streams, rings: rings)
    }

    /// Whether ``send(_:to:)`` writes its streams in batches here, and if not,
    /// why: anything but `.supported` and each stream is written with a
    /// `send()` of its own.
    public var support: SendRingSupport {
        rings.availability
    }
}
