/// The PostgreSQL database that replicas share: the durable, ordered log of
/// every table's changes, with snapshots (docs/SCALING.md). Every replica keeps
/// the tables in memory as a cache of it.
///
/// Thread-safe: statements run on connections of a pool; an edit holds one
/// connection for its transaction.
public final class TableDatabase: Sendable {
    let pool: ConnectionPool
    public let options: DatabaseOptions

    /// Connects and creates or migrates the schema. Several replicas may start
    /// at the same moment: migrations run under an advisory lock, in one
    /// transaction each, so exactly one replica applies each.
    public init(options: DatabaseOptions) throws {
        self.options = options
        pool = ConnectionPool(url: options.url, size: options.connections, connectTimeout: options.connectTimeout)
        try migrate()
    }

    func migrate() throws {
        try pool.transaction { connection in
            try connection.query("SELECT pg_advisory_xact_lock(\(DatabaseSchema.lockKey))")
            try connection.query("CREATE TABLE IF NOT EXISTS webtableview_schema (version integer NOT NULL)")
            let current =
                Int(try connection.query("SELECT coalesce(max(version), 0) FROM webtableview_schema")[0][0] ?? "0") ?? 0
            guard current <= DatabaseSchema.version else {
                throw DatabaseError(
                    .inconsistent,
                    "the database's schema is version \(current); this build knows up to \(DatabaseSchema.version)")
            }
            for (index, statements) in DatabaseSchema.migrations.enumerated() where index + 1 > current {
                for statement in statements { try connection.query(statement) }
                try connection.query("INSERT INTO webtableview_schema (version) VALUES ($1)", ["\(index + 1)"])
            }
        }
    }

    // MARK: Start-up

    /// Seeds an empty database with `tables` (each its JSON at its version), once
    /// for all replicas: answers false when the database was seeded before.
    public func seed(_ tables: [(id: String, version: Int, json: [UInt8])]) throws -> Bool {
        try pool.transaction { connection in
            try connection.query("SELECT pg_advisory_xact_lock(\(DatabaseSchema.lockKey))")
            guard try connection.query("SELECT 1 FROM webtableview_seeded").isEmpty else { return false }
            for table in tables {
                _ = try Self.insertTable(table.id, version: table.version, json: table.json, on: connection)
            }
            try connection.query("INSERT INTO webtableview_seeded VALUES (true)")
            return true
        }
    }

    /// Every table's id, incarnation and version, in creation order.
    public func heads() throws -> [TableHead] {
        try pool.withConnection { connection in
            try connection.query("SELECT id, incarnation, version FROM webtableview_tables ORDER BY incarnation")
                .map(TableHead.init(row:))
        }
    }

    /// Table `id`'s head, or nil when there is no such table.
    public func head(of id: String) throws -> TableHead? {
        try pool.withConnection { connection in
            try connection.query(
                "SELECT id, incarnation, version FROM webtableview_tables WHERE id = $1", [id], prepared: "table_head"
            ).first.map(TableHead.init(row:))
        }
    }

    /// Table `id` as one consistent view: the newest snapshot that leaves at
    /// least `history` changes after it (or the oldest kept), and every change
    /// after that snapshot. Nil when the table is gone.
    public func load(_ id: String, history: Int) throws -> StoredTable? {
        try pool.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            guard
                let head = try connection.query(
                    "SELECT id, incarnation, version FROM webtableview_tables WHERE id = $1", [id]
                ).first.map(TableHead.init(row:))
            else { return nil }
            let base = try connection.query(
                """
                (SELECT version, snapshot FROM webtableview_snapshots
                  WHERE incarnation = $1 AND version <= greatest(0, $2::bigint - $3::bigint)
                  ORDER BY version DESC LIMIT 1)
                UNION ALL
                (SELECT version, snapshot FROM webtableview_snapshots
                  WHERE incarnation = $1 ORDER BY version LIMIT 1)
                """,
                ["\(head.incarnation)", "\(head.version)", "\(history)"])
            guard let snapshot = base.first, let version = Int(snapshot[0] ?? ""), let json = snapshot[1] else {
                throw DatabaseError(.inconsistent, "table \"\(id)\" has no snapshot")
            }
            let changes = try Self.changes(of: head.incarnation, after: version, on: connection)
            return StoredTable(head: head, snapshotVersion: version, snapshot: Array(json.utf8), changes: changes)
        }
    }

    /// The changes of a table's incarnation after `version`, in order.
    public func changes(of incarnation: Int64, after version: Int) throws -> [StoredChange] {
        try pool.withConnection { connection in try Self.changes(of: incarnation, after: version, on: connection) }
    }

    // MARK: Edits

    /// Adds a table at its version; answers its incarnation, or nil when a
    /// table of that id exists. With `key` (the request's `Idempotency-Key`),
    /// records the key in the same transaction (`insertKey`): throws
    /// `.keyTaken`, and adds nothing, when it is there already.
    /// When the connection breaks during its `COMMIT`, finds out whether it
    /// committed (`outcome(of:_:)`).
    public func create(_ id: String, version: Int, json: [UInt8], key: StoredKey? = nil) throws -> Int64? {
        var made: (backend: Int32, incarnation: Int64)?
        do {
            return try pool.transaction { connection in
                let incarnation = try Self.insertTable(id, version: version, json: json, on: connection)
                if let incarnation {
                    if let key { try insertKey(key, on: connection) }
                    try connection.query(
                        "SELECT pg_notify($1, $2)", [DatabaseSchema.channel, TableNotice(id: id, version: -1).payload])
                    made = (connection.backendPID, incarnation)
                }
                return incarnation
            }
        } catch let failure as DatabaseError where failure.kind == .unavailable && made != nil {
            guard let made else { throw failure }
            guard try outcome(of: made.backend, { try Self.exists(made.incarnation, on: $0) }) else { throw failure }
            return made.incarnation
        }
    }

    /// One edit of table `id` (incarnation `incarnation`, held by this replica
    /// at `version`). When this returns, the edit is committed; when it
    /// throws, nothing is.
    ///
    /// First, optimistically, `body` validates the edit against this replica's
    /// version (no missed changes), and what it answers is committed in one
    /// statement only if the table is still at that version in the database
    /// (compare and set on the table's row: one round trip, one commit). When
    /// another replica got there first, the edit runs again under the row's
    /// lock (`lockedEdit`): `body` is called a second time with the changes it
    /// missed. A refusal or a no-op is answered only once the database confirms
    /// it was judged on the latest version.
    /// Throws `.tableMissing` when the table was deleted or re-created since
    /// this replica loaded it, `.historyGone` when the changes this replica
    /// lacks were trimmed (it must reload the table). When the connection
    /// breaks while the edit commits, finds out whether it did
    /// (`outcome(of:_:)`): it returns when it did, throws `.unavailable` when
    /// it did not, `.outcomeUnknown` when that cannot be found out.
    public func edit(
        _ id: String, incarnation: Int64, version: Int,
        _ body: ([StoredChange]) throws -> DatabaseEdit
    ) throws {
        let commit = Int64.random(in: 1...Int64.max)
        let first: DatabaseEdit
        do {
            first = try body([])
        } catch {
            if try isCurrent(id, incarnation: incarnation, version: version) { throw error }
            return try lockedEdit(id, incarnation: incarnation, version: version, commit: commit, body)
        }
        let committed: Bool
        switch first {
        case .nothing:
            committed = try isCurrent(id, incarnation: incarnation, version: version)
        case .changes(let jsons):
            committed =
                try jsons.isEmpty
                ? isCurrent(id, incarnation: incarnation, version: version)
                : appendIfCurrent(id, incarnation: incarnation, version: version, commit: commit, jsons)
        case .deletion(let key):
            // A keyed deletion writes its key too: under the row's lock.
            committed = try key == nil && deleteIfCurrent(id, incarnation: incarnation, version: version)
        }
        if !committed { try lockedEdit(id, incarnation: incarnation, version: version, commit: commit, body) }
    }

    /// Deletes the table — in one statement, committed on its own — only if it
    /// is still at `version`; answers whether it was.
    func deleteIfCurrent(_ id: String, incarnation: Int64, version: Int) throws -> Bool {
        var sentBy: Int32?
        do {
            return try pool.withConnection { connection in
                sentBy = connection.backendPID
                return try !connection.query(
                    """
                    WITH gone AS (
                        DELETE FROM webtableview_tables WHERE id = $1 AND incarnation = $2 AND version = $3 RETURNING id)
                    SELECT pg_notify($4, $5) FROM gone
                    """,
                    [
                        id, "\(incarnation)", "\(version)", DatabaseSchema.channel,
                        TableNotice(id: id, version: -1).payload,
                    ]
                ).isEmpty
            }
        } catch let failure as DatabaseError where failure.kind == .unavailable && sentBy != nil {
            guard let sentBy, try outcome(of: sentBy, { try !Self.exists(incarnation, on: $0) }) else { throw failure }
            return true
        }
    }

    /// Whether table `id` is still incarnation `incarnation` at `version`;
    /// throws `.tableMissing` when it is gone or re-created.
    func isCurrent(_ id: String, incarnation: Int64, version: Int) throws -> Bool {
        let row = try pool.withConnection { connection in
            try connection.query(
                "SELECT incarnation, version FROM webtableview_tables WHERE id = $1", [id], prepared: "table_version"
            ).first
        }
        guard let row, Int64(row[0] ?? "") == incarnation else { throw Self.missing(id) }
        return Int(row[1] ?? "") == version
    }

    /// Appends `jsons` as the versions after `version`, moves the table's
    /// version and notifies — in one statement, committed on its own — only if
    /// the table is still at `version`; answers whether it was.
    /// The rows carry `commit`: when the connection breaks meanwhile, they
    /// tell whether the statement committed.
    func appendIfCurrent(_ id: String, incarnation: Int64, version: Int, commit: Int64, _ jsons: [[UInt8]]) throws
        -> Bool
    {
        guard jsons.count <= ChangeInsert.rowsPerStatement else { return false }
        let next = version + jsons.count
        var parameters: [String?] = [
            id, "\(incarnation)", "\(version)", "\(next)", DatabaseSchema.channel,
            TableNotice(
                id: id, version: next, incarnation: incarnation, changes: jsons,
                carryingChanges: options.noticesCarryChanges
            ).payload, "\(commit)",
        ]
        for (offset, json) in jsons.enumerated() {
            parameters.append("\(version + 1 + offset)")
            parameters.append(String(decoding: json, as: UTF8.self))
        }
        var sentBy: Int32?
        do {
            return try pool.withConnection { connection in
                sentBy = connection.backendPID
                return try !connection.query(
                    ChangeInsert.compareAndAppend(count: jsons.count), parameters,
                    prepared: "compare_and_append_\(jsons.count)"
                ).isEmpty
            }
        } catch let failure as DatabaseError where failure.kind == .unavailable && sentBy != nil {
            guard let sentBy, try outcome(of: sentBy, { try Self.wrote(commit, of: incarnation, on: $0) }) else {
                throw failure
            }
            return true
        }
    }

    /// The edit under the table's row lock, in one transaction:
    /// 1. lock the table's row, so edits of the table through any replica are
    ///    made one after the other;
    /// 2. hand `body` the changes committed after `version` (through other
    ///    replicas) and let it validate the edit against the latest version;
    /// 3. insert what it answers with the following versions, move the table's
    ///    version, notify, and commit.
    /// 4. when the connection breaks during `COMMIT`, find out whether it
    ///    committed (the rows carry `commit`; `outcome(of:_:)`).
    func lockedEdit(
        _ id: String, incarnation: Int64, version: Int, commit: Int64,
        _ body: ([StoredChange]) throws -> DatabaseEdit
    ) throws {
        var sent: (backend: Int32, edit: DatabaseEdit)?
        do {
            try pool.transaction { connection in
                let edit = try lockedStatements(
                    id, incarnation: incarnation, version: version, commit: commit, body, on: connection)
                sent = (connection.backendPID, edit)
            }
        } catch let failure as DatabaseError where failure.kind == .unavailable && sent != nil {
            guard let sent else { throw failure }
            let committed: Bool
            switch sent.edit {
            case .nothing: throw failure
            case .changes: committed = try outcome(of: sent.backend) { try Self.wrote(commit, of: incarnation, on: $0) }
            case .deletion: committed = try outcome(of: sent.backend) { try !Self.exists(incarnation, on: $0) }
            }
            if !committed { throw failure }
        }
    }

    /// `lockedEdit`'s statements before its `COMMIT`; answers what `body` answered.
    private func lockedStatements(
        _ id: String, incarnation: Int64, version: Int, commit: Int64,
        _ body: ([StoredChange]) throws -> DatabaseEdit, on connection: PostgresConnection
    ) throws -> DatabaseEdit {
        let locked = try connection.query(
            "SELECT incarnation, version FROM webtableview_tables WHERE id = $1 FOR UPDATE", [id])
        guard let row = locked.first, Int64(row[0] ?? "") == incarnation, let latest = Int(row[1] ?? "") else {
            throw Self.missing(id)
        }
        var missed: [StoredChange] = []
        if latest > version {
            missed = try Self.changes(of: incarnation, after: version, on: connection)
            guard missed.count == latest - version, missed.first?.version == version + 1 else {
                throw DatabaseError(.historyGone, "the changes of \"\(id)\" after version \(version) were trimmed")
            }
        }
        let edit = try body(missed)
        switch edit {
        case .nothing:
            break
        case .changes(let jsons):
            guard !jsons.isEmpty else { break }
            try Self.insertChanges(jsons, incarnation: incarnation, commit: commit, after: latest, on: connection)
            let next = latest + jsons.count
            // One round trip: move the version and notify (sent at commit).
            try connection.query(
                """
                WITH moved AS (UPDATE webtableview_tables SET version = $2 WHERE id = $1)
                SELECT pg_notify($3, $4)
                """,
                [
                    id, "\(next)", DatabaseSchema.channel,
                    TableNotice(
                        id: id, version: next, incarnation: incarnation, changes: jsons,
                        carryingChanges: options.noticesCarryChanges
                    ).payload,
                ])
        case .deletion(let key):
            try connection.query("DELETE FROM webtableview_tables WHERE id = $1", [id])
            if let key { try insertKey(key, on: connection) }
            try connection.query(
                "SELECT pg_notify($1, $2)", [DatabaseSchema.channel, TableNotice(id: id, version: -1).payload])
        }
        return edit
    }

    // MARK: Keys of creates and deletes

    /// The `Idempotency-Key` `key` of a create or a delete, when it is kept.
    public func storedKey(_ key: String) throws -> StoredKey? {
        let row = try pool.withConnection { connection in
            try connection.query(
                "SELECT digest, made_at FROM webtableview_table_keys WHERE key = $1", [key], prepared: "table_key"
            ).first
        }
        guard let row else { return nil }
        guard let digest = row[0], let madeAt = Int(row[1] ?? "") else {
            throw DatabaseError(.inconsistent, "a key row without its digest or time")
        }
        return StoredKey(key: key, digest: digest, madeAt: madeAt)
    }

    /// Records `key` in the transaction on `connection`, after dropping the
    /// keys older than `options.keyLifetime`; throws `.keyTaken` when a kept
    /// key of that name is there (recorded through another replica meanwhile).
    func insertKey(_ key: StoredKey, on connection: PostgresConnection) throws {
        try connection.query(
            "DELETE FROM webtableview_table_keys WHERE made_at <= $1", ["\(key.madeAt - options.keyLifetime)"])
        let inserted = try connection.query(
            """
            INSERT INTO webtableview_table_keys (key, digest, made_at) VALUES ($1, $2, $3)
            ON CONFLICT (key) DO NOTHING RETURNING key
            """,
            [key.key, key.digest, "\(key.madeAt)"])
        guard inserted.isEmpty else { return }
        throw DatabaseError(.keyTaken, "Idempotency-Key \(key.key) was recorded through another replica meanwhile")
    }

    static func missing(_ id: String) -> DatabaseError {
        DatabaseError(.tableMissing, "table \"\(id)\" was deleted or re-created through another replica")
    }

    /// Stores a snapshot (`json`, the table at `version`) and trims: drops the
    /// changes and snapshots older than the newest snapshot that still leaves
    /// `history` changes after it.
    public func storeSnapshot(incarnation: Int64, version: Int, json: [UInt8], history: Int) throws {
        try pool.transaction { connection in
            let parameters = ["\(incarnation)", "\(version)"]
            try connection.query(
                """
                INSERT INTO webtableview_snapshots (incarnation, version, snapshot)
                SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM webtableview_tables WHERE incarnation = $1)
                ON CONFLICT DO NOTHING
                """,
                parameters + [String(decoding: json, as: UTF8.self)])
            let base = try connection.query(
                """
                SELECT max(s.version) FROM webtableview_snapshots s JOIN webtableview_tables t USING (incarnation)
                 WHERE s.incarnation = $1 AND s.version <= greatest(0, t.version - $2::bigint)
                """,
                ["\(incarnation)", "\(history)"])
            guard let text = base.first?[0], let baseVersion = Int(text) else { return }
            try connection.query(
                "DELETE FROM webtableview_changes WHERE incarnation = $1 AND version <= $2",
                ["\(incarnation)", "\(baseVersion)"])
            try connection.query(
                "DELETE FROM webtableview_snapshots WHERE incarnation = $1 AND version < $2",
                ["\(incarnation)", "\(baseVersion)"])
        }
    }

    // MARK: Notifications

    /// A connection of its own that `LISTEN`s for table notices.
    public func listen() throws -> TableNotices {
        let connection = try PostgresConnection(url: options.url, timeout: options.connectTimeout)
        try connection.query("LISTEN \(DatabaseSchema.channel)")
        return TableNotices(connection: connection)
    }

    // MARK: Statements

    static func insertTable(_ id: String, version: Int, json: [UInt8], on connection: PostgresConnection) throws
        -> Int64?
    {
        let inserted = try connection.query(
            """
            INSERT INTO webtableview_tables (id, incarnation, version)
            VALUES ($1, nextval('webtableview_incarnations'), $2)
            ON CONFLICT (id) DO NOTHING RETURNING incarnation
            """,
            [id, "\(version)"])
        guard let text = inserted.first?[0], let incarnation = Int64(text) else { return nil }
        try connection.query(
            "INSERT INTO webtableview_snapshots (incarnation, version, snapshot) VALUES ($1, $2, $3)",
            [text, "\(version)", String(decoding: json, as: UTF8.self)])
        return incarnation
    }

    static func changes(of incarnation: Int64, after version: Int, on connection: PostgresConnection) throws
        -> [StoredChange]
    {
        try connection.query(
            "SELECT version, change FROM webtableview_changes WHERE incarnation = $1 AND version > $2 ORDER BY version",
            ["\(incarnation)", "\(version)"], prepared: "changes_after"
        ).map { row in
            guard let version = Int(row[0] ?? ""), let json = row[1] else {
                throw DatabaseError(.inconsistent, "a change row without its version or JSON")
            }
            return StoredChange(version: version, json: Array(json.utf8))
        }
    }

    /// Inserts changes `after + 1`, `after + 2`, … in statements of at most
    /// `rowsPerStatement` rows (PostgreSQL takes at most 65,535 parameters).
    static func insertChanges(
        _ jsons: [[UInt8]], incarnation: Int64, commit: Int64, after version: Int, on connection: PostgresConnection
    ) throws {
        var offset = 0
        for statement in ChangeInsert.statements(count: jsons.count) {
            var parameters: [String?] = ["\(incarnation)", "\(commit)"]
            for index in offset..<(offset + statement.rows) {
                parameters.append("\(version + 1 + index)")
                parameters.append(String(decoding: jsons[index], as: UTF8.self))
            }
            try connection.query(statement.sql, parameters)
            offset += statement.rows
        }
    }
}

/// How many rows each `INSERT` of changes carries, and its text.
enum ChangeInsert {
    static let rowsPerStatement = 1_000

    /// `appendIfCurrent`'s statement for `count` changes. Parameters: $1 id,
    /// $2 incarnation, $3 expected version, $4 new version, $5 channel, $6
    /// payload, $7 commit id, then version and JSON of each change. The `UPDATE … WHERE
    /// version = $3` takes the row's lock and, when another edit committed
    /// first, matches no row (PostgreSQL re-checks the condition on the
    /// committed row): then nothing is inserted and nothing notified.
    static func compareAndAppend(count: Int) -> String {
        let values = (0..<count).map { "($2::bigint, $\(8 + 2 * $0)::bigint, $\(9 + 2 * $0)::text, $7::bigint)" }
            .joined(separator: ", ")
        return """
            WITH moved AS (
                UPDATE webtableview_tables SET version = $4
                 WHERE id = $1 AND incarnation = $2 AND version = $3 RETURNING id),
            inserted AS (
                INSERT INTO webtableview_changes (incarnation, version, change, commit_id)
                SELECT * FROM (VALUES \(values)) AS changes WHERE EXISTS (SELECT 1 FROM moved))
            SELECT pg_notify($5, $6) FROM moved
            """
    }

    static func statements(count: Int) -> [(rows: Int, sql: String)] {
        stride(from: 0, to: count, by: rowsPerStatement).map { start in
            let rows = min(rowsPerStatement, count - start)
            let values = (0..<rows).map { "($1, $\(3 + 2 * $0), $\(4 + 2 * $0), $2)" }.joined(separator: ", ")
            return (rows, "INSERT INTO webtableview_changes (incarnation, version, change, commit_id) VALUES \(values)")
        }
    }
}
