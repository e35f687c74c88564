/// What the server keeps about one request between libmicrohttpd's calls:
/// stored in the connection's `req_cls`, released when the request completes.
/// Only the connection's worker thread touches it.
final class RequestContext {
    let start = ContinuousClock.now
    let methodText: String
    let method: HTTPMethod?
    let path: String
    var body: [UInt8] = []
    /// Body bytes thrown away since the body passed the size limit.
    var discarded = 0
    /// The server is stopping: the connection is not kept alive.
    var closesConnection = false
    /// Set once a response is queued; later upload data is discarded.
    var status: Int?
    var route: RouteLabel?
    var queuedAt: ContinuousClock.Instant?

    init(methodText: String, path: String) {
        self.methodText = methodText
        self.method = HTTPMethod(rawValue: methodText)
        self.path = path
    }

    /// Microseconds from the headers' arrival to the response being queued
    /// (or to now, when no response was queued).
    var microseconds: Int64 {
        let elapsed = (queuedAt ?? .now) - start
        let (seconds, attoseconds) = elapsed.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
