extension HTTPServer {
    /// How the server listens and what it tolerates.
    public struct Configuration: Sendable {
        /// The address to bind: an IPv4 or IPv6 literal, `localhost`, or a host name.
        public var host: String
        /// The port; 0 picks a free one (see ``HTTPServer/start()``).
        public var port: Int
        /// Worker threads, each running its own epoll loop.
        public var threads: Int
        /// Connections open at once; further ones are refused.
        public var connectionLimit: Int
        /// A connection idle this long is closed (rounded up to whole seconds).
        public var connectionTimeout: Duration
        /// Request bodies larger than this are refused with 413.
        public var maxBodySize: Int
        /// How often an event stream is sent a keep-alive comment.
        public var heartbeat: Duration
        /// How long ``HTTPServer/shutdown()`` waits for in-flight requests.
        public var shutdownGracePeriod: Duration
        /// Bytes of reusable GET answers kept ready to send again (see
        /// ``ResponseReuse``); 0 keeps none.
        public var preparedResponseBudget: Int
        /// Bytes of reusable GET answers kept once for all worker threads,
        /// behind their own (see ``SharedAnswers``); 0 keeps none.
        public var sharedAnswerBudget: Int
        /// Longer request targets (path and query) are answered 414.
        public var maxTargetLength: Int
        /// Request targets with more query arguments are answered 414.
        public var maxQueryArguments: Int
        /// Allowed `Host` names, CORS origins and the fields every answer carries.
        public var originPolicy = OriginPolicy()
        /// How the heartbeat reaches every stream: batched where the kernel
        /// allows it, unless the owner of the server says otherwise.
        public var eventFanOut = EventFanOut.batched

        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            threads: Int = 2,
            connectionLimit: Int = 10_000,
            connectionTimeout: Duration = .seconds(30),
            maxBodySize: Int = 16 << 20,
            heartbeat: Duration = .seconds(15),
            shutdownGracePeriod: Duration = .seconds(10),
            preparedResponseBudget: Int = 8 << 20,
            sharedAnswerBudget: Int = 0,
            maxTargetLength: Int = 8 << 10,
            maxQueryArguments: Int = 256
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.connectionLimit = connectionLimit
            self.connectionTimeout = connectionTimeout
            self.maxBodySize = maxBodySize
            self.heartbeat = heartbeat
            self.shutdownGracePeriod = shutdownGracePeriod
            self.preparedResponseBudget = preparedResponseBudget
            self.sharedAnswerBudget = sharedAnswerBudget
            self.maxTargetLength = maxTargetLength
            self.maxQueryArguments = maxQueryArguments
        }
    }
}
