import TableDatabase
import TableJournal
import TableModel

/// Everything `webtableview serve` can be told. Its defaults are the only ones:
/// `serve` takes each option's default from here (and `--help` shows them).
public struct ServerOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var threads = 2
    public var publicDirectory = "Public"
    public var templatesDirectory = "Templates"
    /// Changes kept per table for `/changes` and event-stream replay.
    public var history = 1000
    public var maxBodySize = 16 << 20
    /// Seconds an idle connection is kept open.
    public var connectionTimeout = 30
    public var connectionLimit = 10_000
    /// Bytes of JSON read answers kept ready to send again while their table is
    /// unchanged; 0 keeps none.
    public var answerCacheBytes = 8 << 20
    /// Bearer token edits must carry; nil leaves edits open.
    public var token: String?
    public var limits = ModelLimits()
    /// Where and how changes are made durable; nil keeps tables in memory only.
    /// With a journal, its tables are served and the `tables` given to the server
    /// only seed a journal that has never held anything.
    public var journal: JournalOptions?
    /// The PostgreSQL database replicas share (docs/SCALING.md); excludes
    /// `journal`. Its tables are served; the `tables` given to the server only
    /// seed a database that has never been seeded.
    public var database: DatabaseOptions?
    /// Seconds start-up keeps trying to reach the database before giving up.
    public var databaseStartTimeout = 60
    /// The longest a read waits for its table to reach the version its
    /// `Min-Version` header asks for (docs/API.md, "Replicas").
    public var minVersionWait: Duration = .seconds(2)

    public init() {}
}
