import CMicroHTTPD
import Dispatch
import Glibc
import Synchronization

/// A Server-Sent-Events response body, one per connected client.
///
/// Events passed to ``send(_:)`` are queued and written as the client reads
/// them. While nothing is queued the connection is suspended, so an idle
/// stream costs no CPU. The bound is on what waits *behind* the event being
/// written: an event of any size is taken while at most `bufferLimit` bytes
/// wait behind the current one, so a client that reads promptly is never
/// dropped for the size of one event; a client that stops reading is dropped
/// once more than `bufferLimit` bytes wait. Past the bound, while the
/// client's socket still has room, what waits is the server's own delay
/// (libmicrohttpd's worker has not written yet), and up to four times the
/// bound is taken before the client is dropped. A stream holds at most the
/// event being written, four times `bufferLimit` bytes and one more event.
///
/// The direct write (docs/ARCHITECTURE.md, Concurrency): events sent to a
/// suspended stream with nothing queued are framed as one chunk and written to
/// the socket at once, by the sender, with the connection left suspended — no
/// resumption, no libmicrohttpd. That is safe because the stream suspends only
/// from ``read(into:)``, when libmicrohttpd has written everything it framed,
/// and libmicrohttpd touches no suspended socket. When the socket takes only
/// part of the chunk, the rest is finished here, raw (libmicrohttpd would
/// frame it as a chunk of its own), by retries spaced from 1 to 64 ms; the
/// connection is handed back only once no byte of a chunk is left — when more
/// events are queued, the stream is closed, or the client is dropped. A socket
/// that takes nothing goes the usual way: queued, resumed, libmicrohttpd
/// waits for it. A socket that fails (the client gone: `EPIPE`, `ECONNRESET`)
/// drops the client at once: the stream is closed and its close actions run
/// then, not when libmicrohttpd next finds the connection gone.
///
/// The stream's code is in four files: this one (sending, closing), `+State`
/// (the queue and the direct write, under the lock), `+FanOut` (one chunk to
/// many streams, batched through io_uring) and `+Connection` (libmicrohttpd's side).
public final class EventStream: Sendable {
    /// Everything that changes, behind one lock (`EventStream+State.swift`).
    let state = Mutex(State())

    /// Chunks of events the socket took straight from their sender, counted
    /// by way, for ``HTTPMetrics``: each is one write libmicrohttpd was spared.
    public struct Writes: Sendable, Equatable {
        /// Written with a `send()` of the stream's own (the direct write).
        public internal(set) var direct = 0
        /// Written in a delivery's batch through io_uring (``SendRing``).
        public internal(set) var batched = 0
    }
    /// The most bytes that may wait behind the event being written.
    public let bufferLimit: Int

    public init(bufferLimit: Int = 1 << 20) {
        self.bufferLimit = bufferLimit
    }

    /// Queues `bytes` (one event, or a comment) for the client.
    ///
    /// - Returns: false when the stream is closed, or when more than
    ///   `bufferLimit` bytes already wait behind the event being written; the
    ///   stream is then closed and the client dropped.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        send(contentsOf: CollectionOfOne(bytes))
    }

    /// Queues several events in order, as ``send(_:)`` does each, with one lock
    /// of the queue and at most one resumption of the connection for all of them.
    ///
    /// - Returns: false when the stream is closed, or was dropped for one of them
    ///   (the ones after it are not queued).
    @discardableResult
    public func send(contentsOf events: some Collection<[UInt8]>) -> Bool {
        send(Array(events), framed: nil)
    }

    /// Queues the chunk's events, as ``send(contentsOf:)`` does; a suspended
    /// stream with nothing queued writes the chunk framed once for all.
    @discardableResult
    public func send(_ chunk: EventChunk) -> Bool {
        send(chunk.events, framed: chunk.framed)
    }

    /// `framed` is `events` as one chunk (`[]`: not to be written directly),
    /// or nil to be framed here if it is written directly.
    private func send(_ events: [[UInt8]], framed: [UInt8]?) -> Bool {
        var unfinished = false
        let (accepted, actions) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
            guard !state.closed else {
                return (false, [])
            }
            if state.canWriteDirectly, case let chunk = framed ?? EventChunk.frame(events), !chunk.isEmpty {
                switch state.writeDirectly(chunk) {
                case .complete:
                    return (true, [])
                case .partial:
                    unfinished = true
                    return (true, [])
                case .wouldBlock:
                    // Nothing written: libmicrohttpd writes it when the socket takes more.
                    break
                case .failed:
                    // The client is gone: the stream ends now, its close actions
                    // with it, and libmicrohttpd is woken only to let the connection go.
                    return (false, state.dropClient())
                }
            }
            return state.enqueue(events, bufferLimit: bufferLimit)
        }
        Self.runLater(actions)
        if unfinished {
            finishLater(after: DirectRetry.first)
        }
        return accepted
    }

    /// Writes more of the unfinished chunk after `delay`, until it is written
    /// (then hands the connection back if anything waits for libmicrohttpd), the
    /// client is dropped, or the socket takes nothing for `writeTimeout`.
    func finishLater(after delay: Duration) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) {
            self.finishWriting()
        }
    }

    private func finishWriting() {
        let (next, actions) = state.withLock { state -> (Duration?, [@Sendable () -> Void]) in
            guard state.suspended, !state.unfinished.isEmpty else {
                return (nil, [])
            }
            switch DirectWrite.send(state.unfinished, to: state.socket) {
            case .complete:
                state.unfinished = []
                if state.head < state.events.count || state.closed {
                    state.wake()
                }
                return (nil, [])
            case .partial(let count):
                state.keepUnfinished(state.unfinished.dropFirst(count))
                return (state.retryDelay, [])
            case .wouldBlock where DispatchTime.now().uptimeNanoseconds - state.lastProgress < state.writeTimeout:
                state.retryDelay = min(state.retryDelay * 2, DirectRetry.longest)
                return (state.retryDelay, [])
            case .wouldBlock, .failed:
                return (nil, state.dropClient())
            }
        }
        Self.runLater(actions)
        if let next {
            finishLater(after: next)
        }
    }

    /// Queues one event; see ``ServerSentEvent``.
    @discardableResult
    public func send(_ event: ServerSentEvent) -> Bool {
        send(event.bytes)
    }

    /// Ends the response once the queued bytes are written.
    public func close() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else {
                return []
            }
            state.closed = true
            state.wake()
            return state.takeCloseActions()
        }
        Self.runLater(actions)
    }

    /// Whether the stream accepts no more bytes.
    public var isClosed: Bool {
        state.withLock { $0.closed }
    }

    /// Whether libmicrohttpd holds the connection suspended, waiting for
    /// events: what is sent now may be written directly.
    var isSuspended: Bool {
        state.withLock { $0.suspended }
    }

    /// Calls `action` once, when the stream is closed or the client goes
    /// away — soon, if that has already happened. The action never runs
    /// inside ``send(_:)``, ``close()`` or this method, so it may take locks
    /// their callers hold.
    public func onClose(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.closed {
                return true
            }
            state.closeActions.append(action)
            return false
        }
        if runNow {
            Self.runLater([action])
        }
    }

    /// Close actions on their way (``runLater(_:)``): a stopping server waits
    /// for them (``waitForCloseActions()``), so none is still running, or
    /// holding what it captured, when the process exits.
    private static let pendingActions = DispatchGroup()

    static func runLater(_ actions: [@Sendable () -> Void]) {
        guard !actions.isEmpty else {
            return
        }
        let batch = PendingActions(actions)
        pendingActions.enter()
        DispatchQueue.global().async {
            batch.run()
            pendingActions.leave()
        }
    }

    /// Returns once every close action handed to a queue so far has run and
    /// been let go.
    static func waitForCloseActions() {
        pendingActions.wait()
    }

    /// Removes and returns the bytes queued and not yet written. For
    /// in-process transports that have no connection to write to.
    public func takeQueuedBytes() -> [UInt8] {
        state.withLock { state in
            defer { state.removeAll() }
            guard state.head < state.events.count else {
                return []
            }
            return Array(state.events[state.head][state.sent...]) + state.events[(state.head + 1)...].joined()
        }
    }

}

/// The spacing of retries of an unfinished direct write.
enum DirectRetry {
    static let first = Duration.milliseconds(1)
    static let longest = Duration.milliseconds(64)
}

/// Close actions handed to a queue: run once, and let go before the queue
/// says they are done, so that what they captured is freed by then.
private final class PendingActions: Sendable {
    private let actions: Mutex<[@Sendable () -> Void]>

    init(_ actions: [@Sendable () -> Void]) {
        self.actions = Mutex(actions)
    }

    func run() {
        let taken = actions.withLock { actions in
            defer { actions = [] }
            return actions
        }
        taken.forEach { $0() }
    }
}
