/// How to reach the database, and how the replica uses it.
public struct DatabaseOptions: Sendable {
    /// A libpq URL (`postgresql://user@host:5432/db`) or conninfo string.
    public var url: String
    /// Connections for edits and reads of the database (the listener has its own).
    public var connections = 4
    /// Seconds to wait for a connection before PostgreSQL counts as away.
    public var connectTimeout = 5
    /// Changes between two snapshots of a table.
    public var snapshotEvery = 1_000
    /// Seconds the `Idempotency-Key` of a create or a delete is kept
    /// (docs/API.md, "Idempotency-Key": 24 hours).
    public var keyLifetime = 24 * 60 * 60
    /// Whether a notice carries the changes it announces when they fit
    /// (`TableNotice`); false makes every replica read every change by query,
    /// so that `make bench` measures what carrying them buys.
    public var noticesCarryChanges = true

    public init(url: String) {
        self.url = url
    }
}

/// A table as the database knows it now.
public struct TableHead: Sendable, Equatable {
    public var id: String
    public var incarnation: Int64
    public var version: Int

    public init(id: String, incarnation: Int64, version: Int) {
        self.id = id
        self.incarnation = incarnation
        self.version = version
    }

    init(row: [String?]) throws {
        guard let id = row[0], let incarnation = Int64(row[1] ?? ""), let version = Int(row[2] ?? "") else {
            throw DatabaseError(.inconsistent, "a table row without its id, incarnation or version")
        }
        self.init(id: id, incarnation: incarnation, version: version)
    }
}

/// One change as stored: `{"version", "batch"}` bytes.
public struct StoredChange: Sendable, Equatable {
    public var version: Int
    public var json: [UInt8]

    public init(version: Int, json: [UInt8]) {
        self.version = version
        self.json = json
    }
}

/// A table loaded from the database: a snapshot and the changes after it.
public struct StoredTable: Sendable {
    public var head: TableHead
    public var snapshotVersion: Int
    /// The table's JSON at `snapshotVersion`, with its version.
    public var snapshot: [UInt8]
    public var changes: [StoredChange]
}

/// What an edit writes (`TableDatabase.edit`).
public enum DatabaseEdit: Sendable {
    case nothing
    /// The changes, for the versions after the latest, in order.
    case changes([[UInt8]])
    /// The table's deletion, with the `Idempotency-Key` of the request when it sent one.
    case deletion(StoredKey?)
}

/// The `Idempotency-Key` of a create or a delete, as `webtableview_table_keys`
/// holds it: the key, the fingerprint of its request, and when it was made
/// (seconds since 1970).
public struct StoredKey: Sendable, Equatable {
    public var key: String
    public var digest: String
    public var madeAt: Int

    public init(key: String, digest: String, madeAt: Int) {
        self.key = key
        self.digest = digest
        self.madeAt = madeAt
    }
}

/// A `LISTEN`ing connection: used by one thread (the replica's follower).
public final class TableNotices: @unchecked Sendable {
    private let connection: PostgresConnection

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// The notices that arrive within `milliseconds` (none on a timeout);
    /// throws when the connection broke, after which notices are lost.
    public func next(waitingUpTo milliseconds: Int32) throws -> [TableNotice] {
        try connection.notifications(waitingUpTo: milliseconds).compactMap(TableNotice.init(payload:))
    }
}
