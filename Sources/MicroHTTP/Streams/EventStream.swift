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
/// once more than `bufferLimit` bytes wait. A stream holds at most the event
/// being written, `bufferLimit` bytes and one more event.
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
/// waits for it.
public final class EventStream: Sendable {
    /// The fields the direct write reads come first, so that a delivery reaching
    /// the stream finds them beside the lock, in the object's first cache line.
    private struct State {
        /// No more bytes are accepted; the queue is still written out.
        var closed = false
        /// The connection is to be cut without writing the rest.
        var dropped = false
        var suspended = false
        /// A delivery has claimed the direct write and its bytes are on their way
        /// to the socket in a batch (``EventStream/send(_:to:)``): the stream
        /// is neither written nor resumed by anyone else until it finishes.
        var writing = false
        /// The connection's socket while it is attached, for the direct write.
        var socket: Int32 = -1
        var connection: ConnectionHandle?
        /// Bytes queued and not yet handed over, in all events: 0 exactly when
        /// `head == events.count`, as only non-empty events are queued and an
        /// event is forgotten once its last byte is handed over.
        var queuedCount = 0
        /// A directly written chunk the socket took only part of, and how much.
        /// While it is not empty the connection stays suspended (unless dropped).
        var unfinished: ArraySlice<UInt8> = []
        /// Queued events, oldest first, from `head` on (earlier slots are spent).
        var events: [[UInt8]] = []
        var head = 0
        /// Bytes of `events[head]` already handed to the connection.
        var sent = 0
        /// When the socket last took bytes of `unfinished`, and how long it may
        /// take none before the client is dropped (`DispatchTime` nanoseconds).
        var lastProgress: UInt64 = 0
        var writeTimeout: UInt64 = 30_000_000_000
        var retryDelay = DirectRetry.first
        var closeActions: [@Sendable () -> Void] = []
        /// Chunks the socket took (all or part) from their sender, by way.
        var written = Writes()

        /// Bytes waiting behind the event being written.
        var waitingCount: Int {
            head < events.count ? queuedCount - (events[head].count - sent) : 0
        }

        mutating func takeCloseActions() -> [@Sendable () -> Void] {
            defer { closeActions = [] }
            return closeActions
        }

        /// Lets a suspended connection run again (to write or to finish);
        /// never with a chunk half written.
        mutating func wake() {
            if suspended, unfinished.isEmpty, !writing, let connection {
                suspended = false
                MHD_resume_connection(connection.pointer)
            }
        }

        mutating func removeAll() {
            events = []
            head = 0
            sent = 0
            queuedCount = 0
            unfinished = []
        }

        /// Nothing queued and libmicrohttpd holding the connection suspended.
        var canWriteDirectly: Bool {
            suspended && !writing && socket >= 0 && queuedCount == 0 && unfinished.isEmpty && connection != nil
        }

        /// Writes `chunk` to the socket; keeps what it did not take.
        mutating func writeDirectly(_ chunk: [UInt8]) -> DirectWrite {
            let outcome = DirectWrite.send(chunk[...], to: socket)
            switch outcome {
            case .complete:
                written.direct += 1
            case .partial(let count):
                written.direct += 1
                keepUnfinished(chunk[count...])
            case .wouldBlock, .failed:
                break
            }
            return outcome
        }

        /// The socket took bytes and left `rest` of a chunk: it is retried soon,
        /// and the write timeout counts from now.
        mutating func keepUnfinished(_ rest: ArraySlice<UInt8>) {
            unfinished = rest
            lastProgress = DispatchTime.now().uptimeNanoseconds
            retryDelay = DirectRetry.first
        }

        /// The client is cut off without the rest of what it was sent.
        mutating func dropClient() -> [@Sendable () -> Void] {
            closed = true
            dropped = true
            removeAll()
            wake()
            return takeCloseActions()
        }

        /// Queues `events` behind what waits; false (and the client dropped)
        /// once more than `bufferLimit` bytes would wait behind the event
        /// being written.
        mutating func enqueue(_ events: [[UInt8]], bufferLimit: Int) -> (Bool, [@Sendable () -> Void]) {
            var queued = false
            for bytes in events where bytes.count > 0 {
                guard waitingCount <= bufferLimit else {
                    return (false, dropClient())
                }
                self.events.append(bytes)
                queuedCount += bytes.count
                queued = true
            }
            if queued {
                wake()
            }
            return (true, [])
        }

        /// A claimed write (`writing`) the socket took none of: its events go
        /// first, before any queued while it was on its way. Nothing of the
        /// queue has been handed to libmicrohttpd meanwhile (`sent` is 0), as
        /// the connection stayed suspended.
        mutating func requeueFirst(_ unsent: [[UInt8]]) {
            let nonEmpty = unsent.filter { !$0.isEmpty }
            events.insert(contentsOf: nonEmpty, at: head)
            queuedCount += nonEmpty.reduce(0) { $0 + $1.count }
        }

        /// The head event is written: forget it.
        mutating func advance() {
            events[head] = []
            head += 1
            sent = 0
            if head == events.count {
                events.removeAll(keepingCapacity: events.capacity <= 64)
                head = 0
            } else if head >= 64, head * 2 >= events.count {
                events.removeFirst(head)
                head = 0
            }
        }
    }

    private let state = Mutex(State())

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

    /// Hands `chunk` to each of `streams`, in order, as ``send(_:)-(EventChunk)``
    /// does: one delivery's fan-out. Each stream is borrowed from the array,
    /// not retained, and the objects of the next two are fetched into the cache
    /// while the current one is handled.
    ///
    /// Where the kernel allows io_uring, the streams that can be written
    /// directly are written in batches (``SendRing``): each is claimed under
    /// its lock, the batch's sends go to the kernel in one system call, and each
    /// stream then takes its outcome under its lock as a `send()` of its own
    /// would have (docs/ARCHITECTURE.md, Concurrency: the direct write).
    public static func send(_ chunk: EventChunk, to streams: [EventStream]) {
        send(chunk, to: streams, rings: .shared)
    }

    /// Whether ``send(_:to:)`` writes its streams in batches here (the kernel
    /// probed once, at first use), and if not, why: anything but `.supported`
    /// (io_uring refused, as by a container runtime's default seccomp profile,
    /// or without its send operation) and each stream is written with a
    /// `send()` of its own.
    public static var sendRingSupport: SendRingSupport {
        SendRings.shared.availability
    }

    /// ``send(_:to:)`` with the rings of `rings`, if it has any.
    static func send(_ chunk: EventChunk, to streams: [EventStream], rings: SendRings) {
        if streams.count > 1, !chunk.framed.isEmpty, let ring = rings.take() {
            let done = send(chunk, to: streams, batchedBy: ring)
            rings.giveBack(ring)
            if done < streams.count {
                send(chunk, to: Array(streams[done...]), rings: rings)
            }
            return
        }
        streams.withUnsafeBufferPointer { streams in
            for index in streams.indices {
                prefetch(streams, aheadOf: index)
                _ = borrow(Unmanaged.passUnretained(streams[index])) { $0.send(chunk) }
            }
        }
    }

    /// The batched fan-out of ``send(_:to:)``; how many of `streams` it
    /// handled: all of them, unless the ring broke.
    static func send(_ chunk: EventChunk, to streams: [EventStream], batchedBy ring: some BatchSender) -> Int {
        var claimed: [Unmanaged<EventStream>] = []
        var sockets: [Int32] = []
        var results = [Int](repeating: 0, count: ring.capacity)
        claimed.reserveCapacity(ring.capacity)
        sockets.reserveCapacity(ring.capacity)
        return streams.withUnsafeBufferPointer { streams in
            var index = 0
            while index < streams.count, !ring.isBroken {
                claimed.removeAll(keepingCapacity: true)
                sockets.removeAll(keepingCapacity: true)
                while index < streams.count, claimed.count < ring.capacity {
                    prefetch(streams, aheadOf: index)
                    let stream = Unmanaged.passUnretained(streams[index])
                    if let socket = borrow(stream, { $0.claimOrQueue(chunk) }) {
                        claimed.append(stream)
                        sockets.append(socket)
                    }
                    index += 1
                }
                guard !claimed.isEmpty else {
                    continue
                }
                ring.send(chunk.framed, to: sockets, results: &results)
                for (position, stream) in claimed.enumerated() {
                    borrow(stream) { $0.finishClaim(results[position], of: chunk) }
                }
            }
            return index
        }
    }

    /// Fetches into the cache the object of the stream two after `index`, which
    /// a fan-out reaches once it is done with this one and the next. A build
    /// with `-DWTV_ABLATE_PREFETCH` fetches nothing and retains each stream it
    /// handles (``borrow(_:_:)``), for `make bench`'s ablation step.
    @inline(__always)
    private static func prefetch(_ streams: UnsafeBufferPointer<EventStream>, aheadOf index: Int) {
        #if !WTV_ABLATE_PREFETCH
        let ahead = index + 2
        if ahead < streams.count {
            wtv_prefetch_for_write(Unmanaged.passUnretained(streams[ahead]).toOpaque())
        }
        #endif
    }

    /// `body` on the stream, which the caller's array holds, without retaining
    /// it; retained as plain code would in a build with `-DWTV_ABLATE_PREFETCH`.
    @inline(__always)
    private static func borrow<Result>(_ stream: Unmanaged<EventStream>, _ body: (EventStream) -> Result) -> Result {
        #if WTV_ABLATE_PREFETCH
        body(stream.takeUnretainedValue())
        #else
        stream._withUnsafeGuaranteedRef(body)
        #endif
    }

    /// Claims the direct write of `chunk` for a batch and returns the socket;
    /// or, when the stream cannot be written directly, does what
    /// ``send(_:)-(EventChunk)`` does and returns nil.
    private func claimOrQueue(_ chunk: EventChunk) -> Int32? {
        var socket: Int32?
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else {
                return []
            }
            if state.canWriteDirectly {
                state.writing = true
                socket = state.socket
                return []
            }
            return state.enqueue(chunk.events, bufferLimit: bufferLimit).1
        }
        Self.runLater(actions)
        return socket
    }

    /// Takes the outcome of a claimed write, `result` being what `send()`
    /// returned for it, as ``send(_:framed:)`` takes its own: all written;
    /// a part written and the rest finished later; nothing written and the
    /// events queued for libmicrohttpd, which writes them or finds the
    /// client gone. An outcome the ring lost (`-EIO`) drops the client, which
    /// may have been sent any part of the chunk.
    private func finishClaim(_ result: Int, of chunk: EventChunk) {
        var unfinished = false
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            state.writing = false
            if state.dropped {
                state.wake()
                return []
            }
            if result == -Int(EIO) {
                return state.dropClient()
            }
            switch DirectWrite(result: result, of: chunk.framed.count) {
            case .complete:
                state.written.batched += 1
            case .partial(let count):
                state.written.batched += 1
                state.keepUnfinished(chunk.framed[count...])
                unfinished = true
                return []
            case .wouldBlock, .failed:
                state.requeueFirst(chunk.events)
            }
            if state.head < state.events.count || state.closed {
                state.wake()
            }
            return []
        }
        Self.runLater(actions)
        if unfinished {
            finishLater(after: DirectRetry.first)
        }
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
                case .wouldBlock, .failed:
                    // Nothing written: libmicrohttpd writes it, or finds the client gone.
                    break
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
    private func finishLater(after delay: Duration) {
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

    private static func runLater(_ actions: [@Sendable () -> Void]) {
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

    // MARK: Connection side

    /// Binds the stream to the connection that will write it; a client whose
    /// socket takes nothing of a chunk for `writeTimeout` is dropped.
    func attach(to connection: ConnectionHandle, writeTimeout: Duration) {
        let socket = wtv_connection_socket(connection.pointer)
        state.withLock { state in
            state.connection = connection
            state.socket = socket
            state.writeTimeout = writeTimeout.dispatchNanoseconds
        }
    }

    /// The connection is gone: the stream is closed and never resumes it
    /// again. Runs on the connection's thread, where no caller's lock is held.
    /// A claimed write still on its way (``State/writing``) is waited for: the
    /// socket may be closed, and its number reused, only after it is done.
    /// Returns the stream's ``Writes``, for the server's metrics.
    func detach() -> Writes {
        while true {
            let detached = state.withLock { state -> (Writes, [@Sendable () -> Void])? in
                guard !state.writing else {
                    return nil
                }
                state.connection = nil
                state.socket = -1
                state.unfinished = []
                state.suspended = false
                state.closed = true
                return (state.written, state.takeCloseActions())
            }
            if let (written, actions) = detached {
                actions.forEach { $0() }
                return written
            }
            sched_yield()
        }
    }

    /// Ends the stream without writing what is queued (server shutdown).
    func drop() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            state.closed = true
            state.dropped = true
            state.unfinished = []
            state.wake()
            return state.takeCloseActions()
        }
        Self.runLater(actions)
    }

    /// Fills `buffer` from the queue for the connection. When nothing is
    /// queued the connection is suspended until ``send(_:)`` or ``close()``.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        state.withLock { state in
            assert(state.unfinished.isEmpty, "resumed with a directly written chunk unfinished")
            if state.dropped {
                return WTV_READER_END_WITH_ERROR
            }
            var written = 0
            while written < buffer.count, state.head < state.events.count {
                let count = min(state.events[state.head].count - state.sent, buffer.count - written)
                state.events[state.head].withUnsafeBytes { event in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + count)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: event[state.sent..<(state.sent + count)]))
                }
                written += count
                state.sent += count
                state.queuedCount -= count
                if state.sent == state.events[state.head].count {
                    state.advance()
                }
            }
            if written > 0 {
                return written
            }
            if state.closed {
                return WTV_READER_END_OF_STREAM
            }
            if let connection = state.connection {
                state.suspended = true
                MHD_suspend_connection(connection.pointer)
            }
            return 0
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
