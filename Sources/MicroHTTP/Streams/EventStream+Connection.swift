import CMicroHTTPD
import Dispatch
import Glibc

/// The connection side: what libmicrohttpd's callbacks do with the stream.
extension EventStream {
    /// Binds the stream to the connection that will write it, and answers
    /// the connection's socket; a client whose socket takes nothing of a chunk
    /// for `writeTimeout` is dropped.
    func attach(to connection: ConnectionHandle, writeTimeout: Duration) -> Int32 {
        let socket = wtv_connection_socket(connection.pointer)
        state.withLock { state in
            state.connection = connection
            state.socket = socket
            state.writeTimeout = writeTimeout.dispatchNanoseconds
        }
        return socket
    }

    /// The client closed its end of the connection (``ClientWatch``): it is
    /// dropped at once, its close actions run, whether or not anything was
    /// being sent to it.
    func clientLeft() {
        Self.runLater(state.withLock { $0.dropClient() })
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
