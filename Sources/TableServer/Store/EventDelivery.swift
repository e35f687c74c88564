import Dispatch
import MicroHTTP
import Synchronization

/// Hands one table's events to its streams, off the table's lock, in the order
/// they were queued (docs/ARCHITECTURE.md, "The life of an edit").
///
/// Deliveries run on a serial queue and are spaced by a pause that grows with
/// the streams they reach (`pausePerStream` each, at most `longestPause`): the
/// first change after a quiet moment goes out at once, and the changes made
/// while a delivery is recent wait for the next one, which gives each stream
/// all of them with one lock of its queue and one resumption of its
/// connection — one write to the socket for many events. Handing an event to a
/// stream costs a few microseconds, mostly the socket write, so a table edited
/// faster than its subscribers can be written to one change at a time spends
/// a bounded share of a core on them instead of a share that grows with the
/// rate of edits; the price is at most that pause of delay: 100 µs for one
/// subscriber, 10 ms from 100 on (less than a frame of a 60 Hz screen).
final class EventDelivery: Sendable {
    private enum Item {
        /// Events for the streams subscribed when they were queued.
        case events([[UInt8]], to: [EventStream])
        /// Runs after the items before it are delivered.
        case action(@Sendable () -> Void)
    }

    private struct Outbox {
        var items: [Item] = []
        /// A delivery is queued and will take `items`.
        var isScheduled = false
        /// When the last delivery started (`DispatchTime` nanoseconds) and the
        /// pause it asks of the next one.
        var lastDelivery: UInt64 = 0
        var pause: UInt64 = 0
    }

    private let queue = DispatchQueue(label: "webtableview.delivery")
    private let outbox = Mutex(Outbox())
    private let pausePerStream: UInt64
    private let longestPause: UInt64
    private let fanOut: EventFanOut

    init(
        fanOut: EventFanOut = .batched, pausePerStream: Duration = .microseconds(100),
        longestPause: Duration = .milliseconds(10)
    ) {
        self.fanOut = fanOut
        self.pausePerStream = pausePerStream.dispatchNanoseconds
        self.longestPause = longestPause.dispatchNanoseconds
    }

    /// Queues `events` for `streams`. Call in version order (under the table's lock).
    func deliver(_ events: [[UInt8]], to streams: [EventStream]) {
        guard !streams.isEmpty, !events.isEmpty else { return }
        enqueue(.events(events, to: streams))
    }

    /// Runs `action` on the delivery queue once everything queued before it is delivered.
    func afterDeliveries(_ action: @escaping @Sendable () -> Void) {
        enqueue(.action(action))
    }

    /// Delivers everything queued, now, and returns when it is done (server shutdown).
    func flush() {
        queue.sync { deliverQueued() }
    }

    private func enqueue(_ item: Item) {
        let delay = outbox.withLock { outbox -> UInt64? in
            outbox.items.append(item)
            guard !outbox.isScheduled else { return nil }
            outbox.isScheduled = true
            let now = DispatchTime.now().uptimeNanoseconds
            let next = outbox.lastDelivery + outbox.pause
            return next > now ? next - now : 0
        }
        switch delay {
        case nil: break
        case 0: queue.async { self.deliverQueued() }
        case let delay?: queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) { self.deliverQueued() }
        }
    }

    /// Takes every queued item and delivers them in order: consecutive events for
    /// the same streams are handed to each stream together.
    private func deliverQueued() {
        let items = outbox.withLock { outbox -> [Item] in
            outbox.isScheduled = false
            outbox.lastDelivery = DispatchTime.now().uptimeNanoseconds
            let streams = outbox.items.reduce(0) { most, item in
                guard case .events(_, let streams) = item else { return most }
                return max(most, streams.count)
            }
            outbox.pause = min(
                longestPause, pausePerStream.multipliedReportingOverflow(by: UInt64(streams)).partialValue)
            defer { outbox.items = [] }
            return outbox.items
        }
        var run: (events: [[UInt8]], streams: [EventStream])?
        for item in items {
            switch item {
            case .events(let events, let streams):
                if let current = run, Self.same(current.streams, streams) {
                    run?.events += events
                } else {
                    if let run { send(run.events, to: run.streams) }
                    run = (events, streams)
                }
            case .action(let action):
                if let run { send(run.events, to: run.streams) }
                run = nil
                action()
            }
        }
        if let run { send(run.events, to: run.streams) }
    }

    /// Whether two deliveries go to the same streams. A table hands every
    /// delivery its one subscriber array until a stream joins or leaves, so the
    /// arrays usually share their storage, which answers without reaching each
    /// stream (a retain and release of every one, for every change, otherwise).
    private static func same(_ some: [EventStream], _ others: [EventStream]) -> Bool {
        let shared = some.withUnsafeBufferPointer { some in
            others.withUnsafeBufferPointer { others in
                some.baseAddress == others.baseAddress && some.count == others.count
            }
        }
        return shared || some.elementsEqual(others, by: ===)
    }

    /// Frames the events once for every stream (`EventChunk`).
    private func send(_ events: [[UInt8]], to streams: [EventStream]) {
        fanOut.send(EventChunk(events), to: streams)
    }
}
