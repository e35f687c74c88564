import Glibc

/// What the server keeps about one request between libmicrohttpd's calls:
/// stored in the connection's `req_cls` from the first call until the
/// request completes. Only the connection's worker thread touches it.
///
/// One is made per connection, when libmicrohttpd accepts it
/// (``connectionNotified``), and each request on the connection starts it
/// afresh (``begin(method:)``): a kept answer then allocates and frees
/// nothing for its context (docs/ARCHITECTURE.md, Kept answers).
final class RequestContext {
    /// When the headers arrived, in nanoseconds of the monotonic clock.
    private(set) var start: UInt64 = 0
    private(set) var method: HTTPMethod?
    /// The method as sent, kept as text only when it is not one of ``HTTPMethod``.
    private var unroutedMethod: String?
    /// The path as text, made only when something reads it: routing and the
    /// log line. Answering from a kept answer needs only libmicrohttpd's bytes.
    var path: String?
    var body: [UInt8] = []
    /// Body bytes thrown away since the body passed the size limit.
    var discarded = 0
    /// The header fields the server reads itself, found when the headers arrived.
    var fields = RequestFields()
    /// Why the request target is refused, as ``uriLogger`` found it.
    var targetRefusal: TargetRefusal?
    /// The server is stopping: the connection is not kept alive.
    var closesConnection = false
    /// Set once a response is queued; later upload data is discarded.
    var status: Int?
    var route: RouteLabel?
    /// The answer is an event stream, which ends when its client leaves.
    var isEventStream = false
    /// When the response was queued (0 until then), like ``start``.
    var queuedAt: UInt64 = 0
    /// The handler's answer comes later (see ``DeferredResponse``); the
    /// connection is suspended until then.
    var deferred: DeferredResponse?
    /// What is done to a deferred answer before it is queued (CORS fields,
    /// content coding), as to any other answer.
    var finishDeferred: ((HTTPResponse) -> HTTPResponse)?

    /// Starts a request with `method`, forgetting everything about the one before.
    func begin(method name: UnsafePointer<CChar>) {
        start = Self.now()
        method = HTTPMethod(cString: name)
        unroutedMethod = method == nil ? String(cString: name) : nil
        path = nil
        body = []
        discarded = 0
        fields = RequestFields()
        targetRefusal = nil
        closesConnection = false
        status = nil
        route = nil
        isEventStream = false
        queuedAt = 0
        deferred = nil
        finishDeferred = nil
    }

    /// ``path``, made from libmicrohttpd's `url` the first time.
    func path(from url: UnsafePointer<CChar>) -> String {
        if let path {
            return path
        }
        let made = String(cString: url)
        path = made
        return made
    }

    /// The method as sent.
    var methodText: String {
        method?.rawValue ?? unroutedMethod ?? ""
    }

    /// Nanoseconds from the headers' arrival to the response being queued
    /// (or to now, when no response was queued).
    var nanoseconds: UInt64 {
        (queuedAt == 0 ? Self.now() : queuedAt) &- start
    }

    /// The monotonic clock, in nanoseconds: read without the arithmetic of
    /// `ContinuousClock`'s instants and durations.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

/// A request target refused before libmicrohttpd parses it (see ``uriLogger``).
/// It travels to the first access-handler call as a marker in the request's
/// `req_cls`: an address no object can have.
enum TargetRefusal: Int {
    case tooLong = 1
    case tooManyArguments = 2

    init?(marker: UnsafeMutableRawPointer) {
        self.init(rawValue: Int(bitPattern: marker))
    }

    var marker: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: rawValue)!
    }
}
