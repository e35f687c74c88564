import MicroHTTP
import TableAccess
import TableDatabase
import TableJournal
import TableModel

/// Everything `webtableview serve` can be told. Its defaults are the only ones:
/// `serve` takes each option's default from here (and `--help` shows them).
public struct ServerOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var threads = 2
    /// Threads that run heavy requests — imports, snapshot `PUT`s, large
    /// bodies, views of large tables — apart from the worker threads, and
    /// how many more may wait for them (503 `heavy-work-busy` beyond;
    /// docs/RELIABILITY.md, "Heavy work").
    public var heavyThreads = 2
    public var heavyQueue = 16
    public var publicDirectory = "Public"
    public var templatesDirectory = "Templates"
    /// Changes kept per table for `/changes` and event-stream replay.
    public var history = 1000
    /// Bytes those changes may take per table (JSON and rendered event);
    /// older ones are dropped first, and a change larger than this is not kept.
    public var historyBytes = 8 << 20
    /// The most tables `POST /api/tables` creates (409 `too-many-tables` beyond).
    public var maxTables = 1000
    public var maxBodySize = 16 << 20
    /// Seconds an idle connection is kept open.
    public var connectionTimeout = 30
    public var connectionLimit = 10_000
    /// Bytes of JSON read answers kept ready to send again while their table is
    /// unchanged; 0 keeps none. An eighth is the worker threads' shelves of
    /// ready answers, the rest the answers they share.
    public var answerCacheBytes = 64 << 20
    /// Bearer token edits must carry; nil leaves edits open.
    public var token: String?
    /// Who may read, edit and administer each table (docs/ACCESS.md); nil
    /// keeps every table readable by anyone and edits guarded by `token`.
    public var accessPolicy: AccessPolicy?
    /// Verifies the bearer JWTs the policy's rules match (AccessTokens'
    /// `TokenVerifier`); used only with `accessPolicy`.
    public var tokenVerifier: (any TokenVerifying)?
    /// Signs and verifies share links (docs/ACCESS.md, "Share links"), from
    /// the HS256 secret (AccessTokens' `ShareLinks`); used only with
    /// `accessPolicy`. Nil mints none.
    public var shareLinks: (any ShareLinkSigning)?
    public var limits = ModelLimits()
    /// Where and how changes are made durable; nil keeps tables in memory only.
    /// With a journal, its tables are served and the `tables` given to the server
    /// only seed a journal that has never held anything.
    public var journal: JournalOptions?
    /// Without a journal or a database, whether each start is a new life
    /// (docs/API.md, "Caching"): entity tags and event ids carry a random id,
    /// so that a version of an earlier start is never taken as current. False
    /// names versions bare, as a journal does: for a server whose clients
    /// never outlive it (an embedded server stopped with its app).
    public var newLifeAtEachStart = true
    /// The PostgreSQL database replicas share (docs/SCALING.md); excludes
    /// `journal`. Its tables are served; the `tables` given to the server only
    /// seed a database that has never been seeded.
    public var database: DatabaseOptions?
    /// Seconds start-up keeps trying to reach the database before giving up.
    public var databaseStartTimeout = 60
    /// The longest a read waits for its table to reach the version its
    /// `Min-Version` header asks for (docs/API.md, "Replicas").
    public var minVersionWait: Duration = .seconds(2)
    /// Host names served besides `localhost`, `127.0.0.1` and `[::1]` when
    /// bound to a loopback address (`--allowed-host`); others get 421.
    public var allowedHosts: [String] = []
    /// Origins allowed to call the API from another origin (`--cors-origin`).
    public var corsOrigins: [String] = []
    /// Optimisations switched off for `make bench`'s ablation step (`--ablate`);
    /// none in service.
    public var ablations: Set<Ablation> = []

    public init() {}

    /// `scheme://host[:port]` as a browser sends it in `Origin` (`--cors-origin`).
    public static func isOrigin(_ text: String) -> Bool {
        guard let range = text.range(of: "://"), !text[..<range.lowerBound].isEmpty else { return false }
        let authority = text[range.upperBound...]
        return !authority.contains("/") && OriginPolicy.hostName(of: String(authority)) != nil
    }

    /// A host name, optionally with `:port`, as `Host` carries it (`--allowed-host`).
    public static func isHostName(_ text: String) -> Bool {
        OriginPolicy.hostName(of: text) != nil
    }

    /// Said at start-up when the server listens beyond this machine and
    /// anyone who reaches it may edit every table; nil when that is not so.
    public var exposureWarning: String? {
        // Under a policy, edits need the edit right (docs/ACCESS.md).
        guard token == nil, accessPolicy == nil, !OriginPolicy.isLoopback(host) else { return nil }
        return "warning: serving \(host) without a token: anyone who can reach it can edit every table "
            + "(set --token-file or WEBTABLEVIEW_TOKEN, or bind 127.0.0.1)"
    }
}
