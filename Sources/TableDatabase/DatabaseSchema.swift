/// The tables WebTableView keeps in PostgreSQL, and the migrations that make
/// them. Every statement of the product is in this target (docs/ARCHITECTURE.md).
///
/// - `webtableview_tables`: one row per table: its id, its incarnation (a new
///   number each time a table of that id is created, so a follower tells a
///   re-created table from the old one) and its current version. Editing a
///   table locks this row (`SELECT … FOR UPDATE`): that is what orders the
///   edits of one table across replicas.
/// - `webtableview_changes`: every change, `{"version", "batch"}` exactly as
///   `/changes` publishes it, by (incarnation, version), with the random id of
///   the commit that wrote it (`commit_id`).
/// - `webtableview_snapshots`: the table's JSON at some versions: the one it was
///   created with, then one every `snapshotEvery` changes.
/// - `webtableview_seeded`: one row once the first replica seeded the database.
/// - `webtableview_table_keys`: the `Idempotency-Key` of each create and delete
///   of a table made under one, with its request's fingerprint and time: written
///   in the create's or the delete's transaction, so that a retry through any
///   replica finds it; dropped 24 hours after (`TableDatabase.keyLifetime`).
public enum DatabaseSchema {
    /// Serialises migrations and seeding of every replica (`pg_advisory_xact_lock`).
    static let lockKey = "7349118265"

    /// Migration `n` (1-based) brings the schema from version n − 1 to n. Never
    /// edit one that shipped; append a new one.
    public static let migrations: [[String]] = [
        [
            "CREATE SEQUENCE webtableview_incarnations",
            """
            CREATE TABLE webtableview_tables (
                id text PRIMARY KEY,
                incarnation bigint NOT NULL UNIQUE,
                version bigint NOT NULL CHECK (version >= 0)
            )
            """,
            """
            CREATE TABLE webtableview_changes (
                incarnation bigint NOT NULL REFERENCES webtableview_tables (incarnation) ON DELETE CASCADE,
                version bigint NOT NULL,
                change text NOT NULL,
                PRIMARY KEY (incarnation, version)
            )
            """,
            """
            CREATE TABLE webtableview_snapshots (
                incarnation bigint NOT NULL REFERENCES webtableview_tables (incarnation) ON DELETE CASCADE,
                version bigint NOT NULL,
                snapshot text NOT NULL,
                PRIMARY KEY (incarnation, version)
            )
            """,
            "CREATE TABLE webtableview_seeded (seeded boolean PRIMARY KEY)",
        ],
        // Each change row names the commit that wrote it, so a replica whose
        // connection broke during a commit can find out whether it committed.
        ["ALTER TABLE webtableview_changes ADD COLUMN commit_id bigint"],
        // The Idempotency-Keys of creates and deletes, which outlive their
        // table's rows (docs/API.md, "Idempotency-Key").
        [
            """
            CREATE TABLE webtableview_table_keys (
                key text PRIMARY KEY,
                digest text NOT NULL,
                made_at bigint NOT NULL
            )
            """,
            "CREATE INDEX webtableview_table_keys_made_at ON webtableview_table_keys (made_at)",
        ],
    ]

    /// The schema version this build writes.
    public static var version: Int { migrations.count }

    /// The channel replicas `LISTEN` on. A notification is only a hint; its
    /// payload is `TableNotice.payload`, under PostgreSQL's 8,000 bytes.
    static let channel = "webtableview"
}

/// What a notification says: table `id` reached `version` (-1: it was created
/// or deleted; look it up). An edit's notice also carries, when they fit,
/// the table's incarnation and the changes that made `version` (`carried`):
/// a replica that holds the version before them applies them without asking
/// the database (docs/SCALING.md, "Following").
public struct TableNotice: Sendable, Equatable {
    public var id: String
    public var version: Int
    /// The incarnation, and the changes up to `version`, in order; nil when
    /// the notice carries none.
    public var carried: (incarnation: Int64, changes: [[UInt8]])?

    /// The most a payload holds with the changes it carries; a notice whose
    /// changes would make it longer carries none. PostgreSQL refuses a
    /// payload of 8,000 bytes or more.
    public static let payloadLimit = 7_000

    public init(id: String, version: Int) {
        self.id = id
        self.version = version
    }

    /// The notice of `changes`, the last of which is `version`: with them
    /// when the payload stays within `payloadLimit` and none holds a line
    /// break (changes are compact JSON, which never does); never when not
    /// `carryingChanges` (`DatabaseOptions.noticesCarryChanges`).
    public init(id: String, version: Int, incarnation: Int64, changes: [[UInt8]], carryingChanges: Bool = true) {
        self.init(id: id, version: version)
        let size = "\(id):\(version)\n\(incarnation)".utf8.count + changes.reduce(0) { $0 + 1 + $1.count }
        guard carryingChanges, !changes.isEmpty, size <= Self.payloadLimit,
            !changes.contains(where: { $0.contains(0x0A) })
        else { return }
        carried = (incarnation, changes)
    }

    /// `"id:version"` (ids never hold a colon, so the last one splits), then,
    /// when it carries changes, a line with the incarnation and a line with
    /// each change.
    public var payload: String {
        var text = "\(id):\(version)"
        if let carried {
            text += "\n\(carried.incarnation)"
            for change in carried.changes { text += "\n" + String(decoding: change, as: UTF8.self) }
        }
        return text
    }

    public init?(payload: String) {
        let lines = payload.split(separator: "\n", omittingEmptySubsequences: false)
        let head = lines[0]
        guard let colon = head.lastIndex(of: ":"), let version = Int(head[head.index(after: colon)...]) else {
            return nil
        }
        self.init(id: String(head[..<colon]), version: version)
        guard lines.count > 1 else { return }
        guard lines.count > 2, let incarnation = Int64(lines[1]) else { return nil }
        carried = (incarnation, lines.dropFirst(2).map { Array($0.utf8) })
    }

    public static func == (a: TableNotice, b: TableNotice) -> Bool {
        a.id == b.id && a.version == b.version && a.carried?.incarnation == b.carried?.incarnation
            && a.carried?.changes == b.carried?.changes
    }
}
