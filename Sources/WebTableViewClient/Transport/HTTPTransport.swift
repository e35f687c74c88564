import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the client reaches the server: one request, one whole answer. URLSession
/// on every platform (docs/ARCHITECTURE.md, "The client library"); tests and apps
/// may put their own underneath (a proxy, a recording).
public protocol HTTPTransport: Sendable {
    /// Sends `request` and answers its status, headers and body; throws only when
    /// no answer came (the connection failed or was cut).
    func send(_ request: URLRequest) async throws -> HTTPAnswer
}

/// `HTTPTransport` over a `URLSession`.
public struct URLSessionTransport: HTTPTransport {
    public let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// A data task with a completion handler rather than `URLSession.data(for:)`,
    /// whose cancellation deadlocked on Linux: it cancels the URLSession task
    /// synchronously, on the cancelling thread, while Swift holds the cancelled
    /// task's status lock; when URLSession's own queue was at that moment
    /// resuming the same task with its answer (which takes that lock), each
    /// waited for the other for ever (`webtableview follow` stopped by Ctrl-C
    /// as a request ended). Here the cancel is handed to another thread.
    public func send(_ request: URLRequest) async throws -> HTTPAnswer {
        let flight = TaskInFlight()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                flight.start(
                    session.dataTask(with: request) { data, response, error in
                        guard let http = response as? HTTPURLResponse, error == nil else {
                            continuation.resume(throwing: error ?? URLError(.badServerResponse))
                            return
                        }
                        continuation.resume(
                            returning: HTTPAnswer(
                                status: http.statusCode, headers: http.lowercasedHeaders, body: Array(data ?? Data())))
                    })
            }
        } onCancel: {
            flight.cancel()
        }
    }
}

/// A URLSession task that may be cancelled before it starts, while it runs, or
/// after: `cancel` never calls into URLSession on the calling thread (see
/// `URLSessionTransport.send`).
final class TaskInFlight: Sendable {
    private let state = Mutex<(task: URLSessionTask?, cancelled: Bool)>((nil, false))

    /// Starts `task`, or cancels it at once when `cancel` came first.
    func start(_ task: URLSessionTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { Self.cancelElsewhere(task) }
    }

    /// Cancels the task, on another thread, once it has started.
    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        if let task { Self.cancelElsewhere(task) }
    }

    private static func cancelElsewhere(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }
}

extension HTTPURLResponse {
    /// Header values by lower-cased name.
    var lowercasedHeaders: [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return headers
    }
}
