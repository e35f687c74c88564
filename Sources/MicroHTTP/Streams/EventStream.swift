import CMicroHTTPD
import Dispatch
import Synchronization

/// A Server-Sent-Events response body, one per connected client.
///
/// Bytes passed to ``send(_:)`` are queued and written as the client reads
/// them. While nothing is queued the connection is suspended, so an idle
/// stream costs no CPU. A client that stops reading is dropped once its
/// queue would pass `bufferLimit`.
public final class EventStream: Sendable {
    private struct State {
        var queue: [UInt8] = []
        /// Bytes of `queue` already handed to the connection.
        var sent = 0
        /// No more bytes are accepted; the queue is still written out.
        var closed = false
        /// The connection is to be cut without writing the rest.
        var dropped = false
        var suspended = false
        var connection: ConnectionHandle?
        var closeActions: [@Sendable () -> Void] = []

        var queuedCount: Int { queue.count - sent }

        mutating func takeCloseActions() -> [@Sendable () -> Void] {
            defer { closeActions = [] }
            return closeActions
        }

        /// Lets a suspended connection run again (to write or to finish).
        mutating func wake() {
            if suspended, let connection {
                suspended = false
                MHD_resume_connection(connection.pointer)
            }
        }
    }

    private let state = Mutex(State())
    /// The most bytes that may wait for a slow client.
    public let bufferLimit: Int

    public init(bufferLimit: Int = 1 << 20) {
        self.bufferLimit = bufferLimit
    }

    /// Queues `bytes` for the client.
    ///
    /// - Returns: false when the stream is closed, or when the queue would
    ///   pass `bufferLimit`; the stream is then closed and the client dropped.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        let (accepted, actions) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
            guard !state.closed else {
                return (false, [])
            }
            guard state.queuedCount + bytes.count <= bufferLimit else {
                state.closed = true
                state.dropped = true
                state.queue = []
                state.sent = 0
                state.wake()
                return (false, state.takeCloseActions())
            }
            state.queue.append(contentsOf: bytes)
            state.wake()
            return (true, [])
        }
        Self.runLater(actions)
        return accepted
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

    private static func runLater(_ actions: [@Sendable () -> Void]) {
        guard !actions.isEmpty else {
            return
        }
        DispatchQueue.global().async {
            actions.forEach { $0() }
        }
    }

    /// Removes and returns the bytes queued and not yet written. For
    /// in-process transports that have no connection to write to.
    public func takeQueuedBytes() -> [UInt8] {
        state.withLock { state in
            defer {
                state.queue = []
                state.sent = 0
            }
            return Array(state.queue[state.sent...])
        }
    }

    // MARK: Connection side

    /// Binds the stream to the connection that will write it.
    func attach(to connection: ConnectionHandle) {
        state.withLock { $0.connection = connection }
    }

    /// The connection is gone: the stream is closed and never resumes it
    /// again. Runs on the connection's thread, where no caller's lock is held.
    func detach() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            state.connection = nil
            state.suspended = false
            state.closed = true
            return state.takeCloseActions()
        }
        actions.forEach { $0() }
    }

    /// Ends the stream without writing what is queued (server shutdown).
    func drop() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            state.closed = true
            state.dropped = true
            state.wake()
            return state.takeCloseActions()
        }
        Self.runLater(actions)
    }

    /// Fills `buffer` from the queue for the connection. When nothing is
    /// queued the connection is suspended until ``send(_:)`` or ``close()``.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        state.withLock { state in
            if state.dropped {
                return WTV_READER_END_WITH_ERROR
            }
            let count = min(state.queuedCount, buffer.count)
            if count > 0 {
                state.queue.withUnsafeBytes { queue in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: queue[state.sent..<(state.sent + count)]))
                }
                state.sent += count
                if state.sent == state.queue.count {
                    state.queue.removeAll(keepingCapacity: state.queue.capacity <= 1 << 16)
                    state.sent = 0
                } else if state.sent >= 1 << 16 {
                    state.queue.removeFirst(state.sent)
                    state.sent = 0
                }
                return count
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
