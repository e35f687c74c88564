import CMicroHTTPD
import Synchronization

/// An answer given later: a handler returns ``HTTPResponse/deferred(_:)``
/// and completes it afterwards, from any thread, with ``complete(_:)``.
///
/// While it waits, the server suspends the request's connection, so the
/// worker thread serves other connections; completing resumes the connection
/// and the worker thread queues the answer (with CORS fields and content
/// coding, like any other answer). Only the first completion counts. A client
/// that leaves meanwhile is noticed when the answer is written; its request
/// is then logged and counted as any other that failed to be written. When
/// the server stops, answers still waiting after its grace period are
/// completed with 503 (see ``HTTPServer/shutdown()``).
public final class DeferredResponse: Sendable {
    enum State {
        /// Not completed; the suspended connection to resume, once the server has it.
        case waiting(ConnectionHandle?)
        /// Completed, and not yet taken by the connection (or the transport).
        case completed(HTTPResponse)
        /// Taken, or its connection is gone: later completions are ignored.
        case finished
    }

    private struct Storage {
        var state = State.waiting(nil)
        /// Called once with the answer, for transports without a connection.
        var observer: (@Sendable (HTTPResponse) -> Void)?
    }

    private let storage = Mutex(Storage())

    public init() {}

    /// Answers the request with `response`. A `response` deferred itself (a
    /// handler that hands its work on again) answers it once it is completed.
    ///
    /// - Returns: false when it was answered already, or its connection is gone.
    @discardableResult
    public func complete(_ response: HTTPResponse) -> Bool {
        if let later = response.deferral {
            later.onCompletion { [self] answer in complete(answer) }
            return !isCompleted
        }
        let (accepted, observer) = storage.withLock { storage -> (Bool, (@Sendable (HTTPResponse) -> Void)?) in
            guard case .waiting(let connection) = storage.state else {
                return (false, nil)
            }
            if let observer = storage.observer {
                storage.state = .finished
                storage.observer = nil
                return (true, observer)
            }
            storage.state = .completed(response)
            if let connection {
                // Under the lock: the connection stays suspended, and so
                // alive, until this call.
                MHD_resume_connection(connection.pointer)
            }
            return (true, nil)
        }
        observer?(response)
        return accepted
    }

    /// Calls `action` once with the answer — at once when it is complete
    /// already. For transports that have no connection to suspend (tests that
    /// call the router in process), and for an answer deferred again
    /// (``complete(_:)``).
    public func onCompletion(_ action: @escaping @Sendable (HTTPResponse) -> Void) {
        let completed = storage.withLock { storage -> HTTPResponse? in
            switch storage.state {
            case .completed(let response):
                storage.state = .finished
                return response
            case .waiting:
                storage.observer = action
                return nil
            case .finished:
                return nil
            }
        }
        if let completed { action(completed) }
    }

    /// Whether ``complete(_:)`` was called (or the connection is gone).
    public var isCompleted: Bool {
        storage.withLock { storage in
            if case .waiting = storage.state { false } else { true }
        }
    }

    // MARK: Connection side (the connection's worker thread)

    /// Binds the answer to `connection`: the answer, when it is complete
    /// already; otherwise the connection is suspended until it is.
    func suspend(_ connection: ConnectionHandle) -> HTTPResponse? {
        storage.withLock { storage in
            switch storage.state {
            case .completed(let response):
                storage.state = .finished
                return response
            case .waiting:
                storage.state = .waiting(connection)
                MHD_suspend_connection(connection.pointer)
                return nil
            case .finished:
                preconditionFailure("a deferred response bound twice")
            }
        }
    }

    /// The answer, once completed (the connection was resumed for it).
    func take() -> HTTPResponse? {
        storage.withLock { storage in
            guard case .completed(let response) = storage.state else {
                return nil
            }
            storage.state = .finished
            return response
        }
    }

    /// The request is over: the connection is never resumed from here again.
    func detach() {
        storage.withLock { $0.state = .finished }
    }
}
