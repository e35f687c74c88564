import CMicroHTTPD
import Dispatch
import Glibc
import Logging
import Synchronization

/// An HTTP/1.1 server over libmicrohttpd: epoll loops on a pool of worker
/// threads, handlers run on those threads, event streams suspend their
/// connection while idle.
///
/// The server prints nothing; it logs one line per request at `info` level
/// (method, path, status, microseconds) through the given logger, and
/// libmicrohttpd's own messages at `debug` level.
///
/// A started server keeps itself alive until ``shutdown()``.
public final class HTTPServer: Sendable {
    enum Phase {
        case idle, running, stopping, stopped
    }

    struct State {
        var phase = Phase.idle
        var daemon: OpaquePointer?
        var port = 0
        var streams: [ObjectIdentifier: EventStream] = [:]
        /// Requests whose answer is deferred, until they are over.
        var deferrals: [ObjectIdentifier: DeferredResponse] = [:]
        /// Set once shutdown has answered the deferrals left: later ones are
        /// answered at once (a suspended connection must not outlive the daemon).
        var refusesDeferrals = false
        var heartbeat: DispatchSourceTimer?
        /// Notices clients leaving their event streams; holds the server
        /// until shutdown stops it, as the heartbeat does.
        var clientWatch: ClientWatch?
    }

    public let configuration: Configuration
    let router: Router
    let logger: Logger
    let state = Mutex(State())
    /// `state.phase == .running`, for the request path, which does not take
    /// the server's lock: set under the lock, read without it.
    let isRunning = Atomic(false)
    /// Counts every request; `/metrics` reads it.
    public let metricsRecorder = HTTPMetricsRecorder()
    /// Whether the logger takes `info`, the level of the line logged per
    /// request: read once, so a request that logs nothing asks nothing.
    let logsRequests: Bool
    let preparedResponses: PreparedResponses
    /// ``OriginPolicy/responseHeaders``, made once into libmicrohttpd's bytes.
    let policyFields: NativeHeaderFields

    public init(configuration: Configuration, router: Router, logger: Logger) {
        self.configuration = configuration
        self.preparedResponses = PreparedResponses(
            budget: configuration.preparedResponseBudget, threads: configuration.threads,
            sharedBudget: configuration.sharedAnswerBudget)
        self.policyFields = NativeHeaderFields(configuration.originPolicy.responseHeaders)
        self.router = router
        self.logger = logger
        self.logsRequests = logger.logLevel <= .info
    }

    /// A server that logs nothing.
    public convenience init(configuration: Configuration, router: Router) {
        self.init(
            configuration: configuration,
            router: router,
            logger: Logger(label: "MicroHTTP", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }

    /// The port listened on; 0 before ``start()``.
    public var port: Int {
        state.withLock { $0.port }
    }

    /// A snapshot of the request counters and latencies.
    public var metrics: HTTPMetrics {
        metricsRecorder.snapshot()
    }

    /// Binds the configured address and starts serving.
    ///
    /// A program that waits for SIGINT and SIGTERM blocks them (and SIGPIPE)
    /// before this, so the worker threads inherit the mask.
    /// - Returns: the port listened on (the chosen one when configured with 0).
    @discardableResult
    public func start() throws(HTTPServerError) -> Int {
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        return try state.withLock { state throws(HTTPServerError) -> Int in
            guard state.phase == .idle else {
                throw .alreadyStarted
            }
            let retained = Unmanaged.passRetained(self)
            guard let daemon = startDaemon(address: address, context: retained.toOpaque()) else {
                let code = errno
                retained.release()
                throw .cannotListen(host: configuration.host, port: configuration.port, errno: code)
            }
            state.daemon = daemon
            state.port = Int(wtv_daemon_port(daemon))
            state.phase = .running
            isRunning.store(true, ordering: .sequentiallyConsistent)
            state.heartbeat = makeHeartbeat()
            state.clientWatch = ClientWatch { self.dropClientsThatLeft() }
            return state.port
        }
    }

    /// Stops gracefully: refuses new connections, ends every event stream,
    /// lets in-flight requests finish (for at most the grace period; their
    /// connections are not kept alive), then closes the remaining
    /// connections. Returns once the daemon is stopped and the streams' close
    /// actions have run.
    public func shutdown() {
        // MHD_quiesce_daemon races with the epoll worker threads of
        // libmicrohttpd 0.9.75 and can abort the process; new connections
        // are refused by the accept policy instead.
        let (daemon, streams) = state.withLock { state -> (OpaquePointer?, [EventStream]) in
            guard state.phase == .running, let daemon = state.daemon else {
                return (nil, [])
            }
            state.phase = .stopping
            isRunning.store(false, ordering: .sequentiallyConsistent)
            state.heartbeat?.cancel()
            state.heartbeat = nil
            return (daemon, Array(state.streams.values))
        }
        guard let daemon else {
            return
        }
        streams.forEach { $0.close() }
        let deadline = ContinuousClock.now + configuration.shutdownGracePeriod
        // A request counted after this wait began reads `isRunning` as false
        // and closes its connection; one counted before is waited for.
        waitUntil(deadline) { metricsRecorder.requestsInFlight == 0 }
        answerDeferrals()
        let remaining = state.withLock { Array($0.streams.values) }
        if !remaining.isEmpty {
            remaining.forEach { $0.drop() }
            waitUntil(.now + .seconds(1)) { state.withLock { $0.streams.isEmpty } }
        }
        MHD_stop_daemon(daemon)
        state.withLock { state in
            state.clientWatch?.stop()
            state.clientWatch = nil
        }
        // Every stream is detached now; what their close actions hold (a
        // table's handle) is let go before the caller goes on to exit.
        EventStream.waitForCloseActions()
        state.withLock { state in
            state.daemon = nil
            state.phase = .stopped
        }
        Unmanaged.passUnretained(self).release()
    }

    /// Completes, with 503, every deferred answer the grace period did not see
    /// completed, and waits (at most a second) for those requests to end:
    /// libmicrohttpd 0.9.75 aborts when stopped with a connection suspended.
    private func answerDeferrals() {
        let waiting = state.withLock { state in
            state.refusesDeferrals = true
            return Array(state.deferrals.values)
        }
        guard !waiting.isEmpty else {
            return
        }
        waiting.forEach { $0.complete(Self.stopping()) }
        waitUntil(.now + .seconds(1)) { state.withLock { $0.deferrals.isEmpty } }
    }

    /// Keeps `deferral` until its request ends; false once shutdown answered
    /// the deferrals left.
    func register(_ deferral: DeferredResponse) -> Bool {
        state.withLock { state in
            guard !state.refusesDeferrals else {
                return false
            }
            state.deferrals[ObjectIdentifier(deferral)] = deferral
            return true
        }
    }

    /// The request of `deferral` is over.
    func unregister(_ deferral: DeferredResponse) {
        state.withLock { state in
            state.deferrals[ObjectIdentifier(deferral)] = nil
        }
    }

    /// Whether new connections and kept-alive ones are still welcome.
    var isAccepting: Bool {
        isRunning.load(ordering: .sequentiallyConsistent)
    }

    private func waitUntil(_ deadline: ContinuousClock.Instant, _ condition: () -> Bool) {
        while !condition(), ContinuousClock.now < deadline {
            usleep(2_000)
        }
    }

    private func startDaemon(address: SocketAddress, context: UnsafeMutableRawPointer) -> OpaquePointer? {
        var flags =
            MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        let timeout = configuration.connectionTimeout.components
        let timeoutSeconds = max(1, timeout.seconds + (timeout.attoseconds > 0 ? 1 : 0))
        return address.withSockAddr { sockaddr in
            var options = [
                MHD_OptionItem(
                    option: .EXTERNAL_LOGGER,
                    value: unsafeBitCast(daemonLog, to: Int.self),
                    ptr_value: context
                ),
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: sockaddr),
                MHD_OptionItem(
                    option: .UNESCAPE_CALLBACK, value: unsafeBitCast(unescapeURL, to: Int.self), ptr_value: nil),
                MHD_OptionItem(
                    option: .URI_LOG_CALLBACK, value: unsafeBitCast(uriLogger, to: Int.self), ptr_value: context),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: Int(timeoutSeconds), ptr_value: nil),
                MHD_OptionItem(
                    option: .NOTIFY_CONNECTION,
                    value: unsafeBitCast(connectionNotified, to: Int.self),
                    ptr_value: nil
                ),
                MHD_OptionItem(
                    option: .NOTIFY_COMPLETED,
                    value: unsafeBitCast(requestCompleted, to: Int.self),
                    ptr_value: context
                ),
            ]
            if configuration.threads > 1 {
                options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
            }
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return wtv_start_daemon(
                flags, UInt16(configuration.port), acceptPolicy, context, accessHandler, context, options)
        }
    }

    /// Sends a keep-alive comment to every stream each `heartbeat`; a client
    /// that has gone away is noticed when the write fails.
    ///
    /// The timer holds the server strongly until ``shutdown()`` cancels it (a
    /// running server keeps itself alive anyway). A weak reference would give
    /// the server a side table, which makes every retain of it — one per
    /// libmicrohttpd callback — take the runtime's slow path.
    private func makeHeartbeat() -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = configuration.heartbeat.dispatchInterval
        timer.schedule(deadline: .now() + interval, repeating: interval)
        let beat = EventChunk([ServerSentEvent.comment("keep-alive")])
        timer.setEventHandler {
            self.configuration.eventFanOut.send(beat, to: self.state.withLock { Array($0.streams.values) })
        }
        timer.resume()
        return timer
    }
}
