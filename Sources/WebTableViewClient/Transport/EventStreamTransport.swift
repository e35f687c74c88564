import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the follower reads an event stream: the body of a `200` answer as it
/// arrives, in the pieces the network delivers. Any other status ends the
/// sequence with `EventStreamRefused`.
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
    public func stream(_ request: URLRequest) -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream { continuation in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let delegate = StreamDelegate(continuation)
            let streaming = URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: queue)
            let task = streaming.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                streaming.invalidateAndCancel()
            }
            task.resume()
        }
    }
}

/// Feeds one streaming task's pieces to a continuation.
///
/// `@unchecked Sendable`: `refusal` is touched only by the delegate callbacks,
/// which the session calls one at a time on its serial queue.
private final class StreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private var refusal: HTTPAnswer?

    init(_ continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation) {
        self.continuation = continuation
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
        if refusal != nil {
            refusal?.body.append(contentsOf: data)
        } else {
            continuation.yield(Array(data))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let refusal {
            continuation.finish(throwing: EventStreamRefused(answer: refusal))
        } else if let error {
            continuation.finish(throwing: error)
        } else {
            continuation.finish()
        }
    }
}
