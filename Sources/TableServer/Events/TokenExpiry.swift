import Dispatch
import Foundation
import MicroHTTP
import TableAccess

/// Ends an event stream when the bearer token it was opened with expires
/// (docs/ACCESS.md, "Streams and expiry"): a stream is a read that lasts, and
/// it must not outlive the right that let it start.
enum TokenExpiry {
    /// Sends `stream` the `expired` event and ends it at `requester`'s token's
    /// expiry, or its share link's; nothing for the anonymous requester and
    /// the edit token, which do not expire. A stream closed before then is
    /// left alone.
    static func end(_ stream: EventStream, for requester: Requester) {
        let expiry: Date
        switch requester {
        case .bearer(let claims): expiry = claims.expiry
        case .share(let share): expiry = Date(timeIntervalSince1970: Double(share.expiresAt))
        case .anonymous, .editToken: return
        }
        // A dispatch timer, not a Task: Swift's task pool has one thread a
        // core, which a long computation elsewhere in the process (or, in the
        // tests, a property test) may keep busy past the expiry. The timer
        // holds the stream weakly: a stream closed before then is let go, and
        // sending to one closed but still held does nothing.
        let delay = max(0, expiry.timeIntervalSinceNow)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int((delay * 1000).rounded(.up)))) {
            [weak stream] in
            guard let stream else { return }
            stream.send(FeedEvent.expired)
            stream.close()
        }
    }
}
