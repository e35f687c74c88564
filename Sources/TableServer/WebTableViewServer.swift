import Logging
import MicroHTTP
import TableDatabase
import TableJournal
import TableModel
import TableRendering

/// The whole product in one object: the table store, its routes, and the HTTP
/// server that answers them.
///
/// `router` answers requests in-process (tests use it without a socket);
/// `start()` puts the same router behind libmicrohttpd.
public final class WebTableViewServer: Sendable {
    public let router: Router
    private let store: TableStore
    private let http: HTTPServer
    private let journal: Journal?
    private let replication: DatabaseReplication?
    /// The queue heavy requests run on (docs/RELIABILITY.md, "Heavy work").
    let heavyWork: HeavyWork

    /// Loads the templates (failing with a clear error when one is missing or
    /// broken) and adds `tables`; refuses duplicate table ids. With
    /// `options.journal`, first rebuilds the tables the journal holds, and adds
    /// `tables` only when the journal has never held anything. With
    /// `options.database`, connects (retrying while PostgreSQL starts), seeds
    /// an empty database with `tables` and loads what the database holds.
    public init(options: ServerOptions, tables: [Table], logger: Logger) throws {
        let files = StaticFiles(root: options.publicDirectory)
        // Versions outlive the process only in a journal or the database: without, each start is a new life.
        let life =
            options.journal == nil && options.database == nil && options.newLifeAtEachStart
            ? ServerLife.fresh() : .lasting
        let renderer = try TableRenderer(
            templatesDirectory: options.templatesDirectory, assets: "/assets/\(files.version)", life: life.id ?? "",
            stampsRows: !options.ablations.contains(.rowPlan))
        let fanOut = EventFanOut(batching: !options.ablations.contains(.sendRing))
        var seen = Set<String>()
        if let duplicate = tables.first(where: { !seen.insert($0.id).inserted }) {
            throw StartError.duplicateTable(duplicate.id)
        }
        if var databaseOptions = options.database {
            databaseOptions.noticesCarryChanges = !options.ablations.contains(.noticeChanges)
            guard options.journal == nil else { throw StartError.journalAndDatabase }
            let database = try Self.connect(databaseOptions, timeout: options.databaseStartTimeout, logger: logger)
            let replication = DatabaseReplication(database: database, history: options.history, logger: logger)
            self.replication = replication
            journal = nil
            store = TableStore(
                history: options.history, historyBytes: options.historyBytes, maxTables: options.maxTables,
                renderer: renderer, fanOut: fanOut, log: replication)
            do {
                try replication.load(tables, into: store)
            } catch {
                throw StartError.database("\(error)")
            }
            replication.start()
        } else {
            replication = nil
            var recovery: JournalRecovery?
            if let journalOptions = options.journal {
                do throws(JournalError) {
                    let opened = try Journal.open(journalOptions) { notice in Self.log(notice, to: logger) }
                    journal = opened.journal
                    recovery = opened.recovery
                } catch {
                    throw StartError.journal(error)
                }
            } else {
                journal = nil
            }
            store = TableStore(
                history: options.history, historyBytes: options.historyBytes, maxTables: options.maxTables,
                renderer: renderer, fanOut: fanOut, log: journal, life: life)
            do {
                try Self.load(tables, recovery: recovery, into: store, logger: logger)
            } catch {
                journal?.close()
                throw error
            }
            journal?.start { [store] in store.snapshotTables() }
        }
        heavyWork = HeavyWork(limits: HeavyWork.Limits(threads: options.heavyThreads, waiting: options.heavyQueue))
        let metrics = MetricsSource()
        let editToken = options.token.flatMap(EditToken.init)
        // With a policy, the edit token is one of its requesters (admin of every table).
        let access = options.accessPolicy.map { [store] in
            AccessControl(
                policy: $0, verifier: options.tokenVerifier, editToken: editToken, shareLinks: options.shareLinks,
                store: store)
        }
        var builder = RouteBuilder(
            router: Router(),
            context: RouteContext(
                store: store, renderer: renderer, limits: options.limits,
                token: access == nil ? editToken : nil, metrics: metrics, logger: logger,
                corsOrigins: Set(options.corsOrigins),
                readiness: { [replication] in replication?.isReady ?? true },
                minVersionWait: options.minVersionWait,
                access: access, heavyWork: heavyWork))
        let context = builder.context
        builder.add(TableRoutes(context: context))
        builder.add(ReadRoutes(context: context))
        builder.add(EditRoutes(context: context))
        builder.add(IdentifiedEditRoutes(context: context))
        builder.add(MergePatchRoutes(context: context))
        builder.add(FeedRoutes(context: context))
        builder.add(PageRoutes(context: context))
        builder.add(ShareRoutes(context: context))
        builder.add(SystemRoutes(context: context, files: files))
        router = builder.router

        var configuration = HTTPServer.Configuration()
        configuration.host = options.host
        configuration.port = options.port
        configuration.threads = options.threads
        configuration.maxBodySize = options.maxBodySize
        configuration.connectionTimeout = .seconds(options.connectionTimeout)
        configuration.connectionLimit = options.connectionLimit
        // An eighth for the worker threads' shelves of ready answers, the rest
        // for the answers they share (docs/ARCHITECTURE.md, Kept answers).
        configuration.preparedResponseBudget = options.answerCacheBytes / 8
        configuration.sharedAnswerBudget = options.answerCacheBytes - configuration.preparedResponseBudget
        configuration.originPolicy = Self.originPolicy(options)
        configuration.eventFanOut = fanOut
        http = HTTPServer(configuration: configuration, router: router, logger: logger)
        metrics.attach(http)
    }

    /// Binds and starts answering; returns the port (the real one when asked for 0).
    @discardableResult
    public func start() throws -> Int {
        try http.start()
    }

    public var port: Int { http.port }

    /// Nil when a change reaches its subscribers through io_uring, a batch of
    /// sockets a system call; else why it takes one `send()` a subscriber
    /// (the kernel probed once; docs/ARCHITECTURE.md, Concurrency).
    public var eventBatchingRefusal: String? {
        let support = http.configuration.eventFanOut.support
        return support == .supported ? nil : "\(support)"
    }

    /// Ends every event stream, lets in-flight requests finish, and stops; then
    /// flushes and closes the journal.
    public func shutdown() {
        store.closeAllStreams()
        http.shutdown()
        store.leaders?.stop()
        heavyWork.stop()
        journal?.close()
        replication?.stop()
    }

    /// Why the server could not start.
    public enum StartError: Error, CustomStringConvertible {
        case duplicateTable(String)
        /// The journal could not be opened or replayed; nothing was served.
        case journal(JournalError)
        /// The database could not be reached, migrated or loaded.
        case database(String)
        /// PostgreSQL refused the connection for a reason waiting does not
        /// mend (a malformed URL, a refused password): its own words.
        case databaseRejected(String)
        case journalAndDatabase

        public var description: String {
            switch self {
            case .duplicateTable(let id): "two tables have the id \"\(id)\""
            case .journal(let error): "journal: \(error.message)"
            case .database(let message), .databaseRejected(let message): "database: \(message)"
            case .journalAndDatabase: "--journal and --database exclude each other: the database is the durable log"
            }
        }
    }
}

extension WebTableViewServer {
    /// Bound to a loopback address, only its own names (and `allowedHosts`)
    /// are served: DNS rebinding cannot reach it. Every answer carries the
    /// security headers; `corsOrigins` may call from another origin. A 421
    /// names `--allowed-host`, the way to serve another name.
    static func originPolicy(_ options: ServerOptions) -> OriginPolicy {
        var allowedHosts: Set<String>?
        if OriginPolicy.isLoopback(options.host) {
            allowedHosts = OriginPolicy.loopbackNames.union(options.allowedHosts.compactMap(OriginPolicy.hostName(of:)))
        }
        var policy = OriginPolicy(
            allowedHosts: allowedHosts, corsOrigins: Set(options.corsOrigins),
            responseHeaders: CrossSite.responseHeaders)
        policy.misdirectedDetail =
            "This server does not answer to the host named in the Host header: bound to a loopback address, it "
            + "answers to localhost, 127.0.0.1 and [::1] only, and to each name given with --allowed-host NAME."
        return policy
    }
}
