import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the follower reads an event stream: the body of a `200` answer as it
/// arrives, in the pieces the network delivers. Any other status ends the
/// sequence with `EventStreamRefused`. The request's `timeoutInterval` is the
/// longest silence allowed: a stream that delivers nothing for that long fails
/// with `URLError(.timedOut)`.
public protocol EventStreamTransport: Sendable {
    func stream(_ request: URLRequest) -> AsyncThrowingStream<[UInt8], any Error>
}

/// An event stream answered with another status than `200`: the whole answer.
public struct EventStreamRefused: Error, Sendable {
    public var answer: HTTPAnswer
}

extension URLSessionTransport: EventStreamTransport {
    /// Streams through a session of its own, with this session's configuration,
    /// whose delegate hands on each piece as `didReceive data` gets it: that
    /// works on Apple platforms and, over libcurl, on Linux, where
    /// `URLSession.bytes(for:)` does not exist.
    ///
    /// URLSession's own `timeoutInterval` bounds the whole request on Linux
    /// (libcurl), where an event stream must live for hours, but only the
    /// silence on Apple platforms; so the silence is watched here on both, and
    /// URLSession is given a day.
    public func stream(_ request: URLRequest) -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream { continuation in
            let silence = Duration.milliseconds(Int(request.timeoutInterval * 1000))
            var unbounded = request
            unbounded.timeoutInterval = 86_400
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let activity = StreamActivity()
            let delegate = StreamDelegate(continuation, activity)
            let streaming = URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: queue)
            let task = streaming.dataTask(with: unbounded)
            let watch = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: silence / 4)
                    if activity.timeOut(after: silence) {
                        task.cancel()
                        return
                    }
                }
            }
            // Handed to another thread: onTermination runs on the thread that
            // cancelled the reading task, with Swift holding that task's status
            // lock, and URLSession's cancel waits for its own queue, which may
            // be yielding a piece to that task (see `URLSessionTransport.send`).
            continuation.onTermination = { _ in
                watch.cancel()
                DispatchQueue.global().async {
                    task.cancel()
                    streaming.invalidateAndCancel()
                }
            }
            task.resume()
        }
    }
}

/// When a stream last received anything, and whether it was ended for its silence.
private final class StreamActivity: Sendable {
    private let state = Mutex((last: ContinuousClock.now, timedOut: false))

    func touch() {
        state.withLock { $0.last = .now }
    }

    /// Marks the stream timed out when it has been silent for `limit`; answers whether it is.
    func timeOut(after limit: Duration) -> Bool {
        state.withLock { state in
            if ContinuousClock.now - state.last >= limit { state.timedOut = true }
            return state.timedOut
        }
    }

    var timedOut: Bool { state.withLock { $0.timedOut } }
}

/// Feeds one streaming task's pieces to a continuation.
///
/// `@unchecked Sendable`: `refusal` is touched only by the delegate callbacks,
/// which the session calls one at a time on its serial queue.
private final class StreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private let activity: StreamActivity
    private var refusal: HTTPAnswer?

    init(_ continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation, _ activity: StreamActivity) {
        self.continuation = continuation
        self.activity = activity
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse, http.statusCode != 200 {
            refusal = HTTPAnswer(status: http.statusCode, headers: http.lowercasedHeaders, body: [])
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        activity.touch()
        if refusal != nil {
            refusal?.body.append(contentsOf: data)
        } else {
            continuation.yield(Array(data))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let refusal {
            continuation.finish(throwing: EventStreamRefused(answer: refusal))
        } else if activity.timedOut {
            continuation.finish(throwing: URLError(.timedOut))
        } else if let error {
            continuation.finish(throwing: error)
        } else {
            continuation.finish()
        }
    }
}
