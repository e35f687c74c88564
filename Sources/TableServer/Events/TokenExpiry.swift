import Foundation
import MicroHTTP
import TableAccess

/// Ends an event stream when the bearer token it was opened with expires
/// (docs/ACCESS.md, "Streams and expiry"): a stream is a read that lasts, and
/// it must not outlive the right that let it start.
enum TokenExpiry {
    /// Sends `stream` the `expired` event and ends it at `requester`'s token's
    /// expiry; nothing for the anonymous requester and the edit token, which
    /// do not expire. A stream closed before then lets its timer go.
    static func end(_ stream: EventStream, for requester: Requester) {
        guard case .bearer(let claims) = requester else { return }
        let expiry = claims.expiry
        let timer = Task {
            let delay = expiry.timeIntervalSinceNow
            if delay > 0 {
                do {
                    try await Task.sleep(for: .milliseconds(Int64((delay * 1000).rounded(.up))))
                } catch {
                    return
                }
            }
            stream.send(FeedEvent.expired)
            stream.close()
        }
        stream.onClose { timer.cancel() }
    }
}
