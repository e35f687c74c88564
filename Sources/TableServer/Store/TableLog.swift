import TableJournal
import TableModel

/// Where the store makes a change durable before it applies, publishes or
/// answers it: the journal of one server (`--journal`) or the database that
/// replicas share (`--database`). The store holds the table's lock while it calls
/// the log and never knows which one it has (docs/ARCHITECTURE.md, "Durable logs").
///
/// A log that cannot record throws: the store then answers 503
/// `storage-unavailable` and changes nothing.
protocol TableLog: Sendable {
    /// Whether the edits of one table that arrive while its last edit is being
    /// recorded should be recorded together, in one `recordEdit` (a group
    /// commit, `GroupCommit`): true for the database, where each record is a
    /// round trip and a commit; false for the journal, which groups its own
    /// flushes and records under the table's lock.
    var commitsInGroups: Bool { get }

    /// Records a new table at its version, with the `Idempotency-Key` of the
    /// request that creates it; answers the log's mark for the table (kept in
    /// `TableHandle.State.logMark` and handed back to `recordEdit`). A log
    /// shared with other replicas throws `idempotencyKeyInUse` when one of
    /// them recorded `key` meanwhile.
    func recordCreation(of table: Table, key: ChangeKey?) throws -> UInt64

    /// Records one edit of table `id`, which this server holds at `version`
    /// with `mark`. Calls `edit` with the changes the log holds after `version`
    /// that this server has not applied yet (made through another replica; a
    /// journal has none), which the store applies first; then records what
    /// `edit` answers, atomically. `edit` may be called a second time, with
    /// changes, when the first answer turned out to be validated against an
    /// older version than the log's latest: only the last answer is recorded.
    /// Answers the table's mark afterwards. When `edit` throws, nothing is
    /// recorded and the error is rethrown.
    func recordEdit(
        of id: String, mark: UInt64, version: Int,
        _ edit: (_ missed: [LoggedChange]) throws -> LoggedEdit
    ) throws -> UInt64

    /// Brings this server's copy of table `id` up to date with the log, before
    /// it answers that the table is missing (or is another incarnation): when
    /// other servers share the log (the database), the table may have been
    /// created, deleted or re-created through one of them. Answers whether
    /// the log is shared (the journal: false, nothing to look up).
    func lookUp(_ id: String) throws -> Bool

    /// The `Idempotency-Key` `key` of a create or a delete made through
    /// another replica, when the log is shared and keeps it (the journal: nil,
    /// this server knows every key it recorded).
    func directoryKey(_ key: String) throws -> ChangeKey?
}

/// What one edit does, validated against a table without changing it: the
/// store records it through the log, then makes it (`TableStore.make`).
enum StagedEdit: Sendable {
    /// One batch (`apply`), prepared on the table (an empty one changes
    /// nothing), with its change JSON (`{"version", "batch"}`).
    case batch(PreparedBatch, json: [UInt8])
    /// Consecutive batches (a snapshot `PUT`), each one version, with the table after it.
    case steps([Step])
    /// The table's deletion.
    case deletion

    struct Step: Sendable {
        var batch: Batch
        var table: Table
    }

    /// What the log records for it: each change as `/changes` publishes it.
    var logged: LoggedEdit {
        switch self {
        case .batch(let prepared, let json):
            prepared.batch.isEmpty ? .nothing : .changes([json])
        case .steps(let steps):
            steps.isEmpty ? .nothing : .changes(steps.map { $0.batch.changeJSONBytes(version: $0.table.version) })
        case .deletion:
            .deletion(nil)
        }
    }
}

/// What an edit answers once made: the table after it, the batch it applied
/// and its change JSON (`apply`), the changes it published, and whether it
/// deleted the table.
struct EditResult: Sendable {
    var table: Table
    var batch = Batch()
    var json: [UInt8] = []
    var changes: [Change] = []
    var deleted = false
}

/// What one edit records.
enum LoggedEdit: Sendable {
    /// Nothing: the edit changed nothing (or was refused).
    case nothing
    /// Changes to the table, each `{"version", "batch"}` as `/changes` publishes it.
    case changes([[UInt8]])
    /// The table's deletion, with the `Idempotency-Key` of its request.
    case deletion(ChangeKey?)
}

/// One change as a log holds it: the table's version after it and its
/// `{"version", "batch"}` JSON, the bytes `/changes` publishes.
struct LoggedChange: Sendable {
    var version: Int
    var json: [UInt8]
}

/// The journal as a table log: one record per edit, appended (and flushed per
/// `--fsync`) before the edit is applied.
extension Journal: TableLog {
    var commitsInGroups: Bool { false }

    func lookUp(_ id: String) -> Bool { false }

    func directoryKey(_ key: String) -> ChangeKey? { nil }

    func recordCreation(of table: Table, key: ChangeKey?) throws -> UInt64 {
        try append(.create(table, key: key))
    }

    func recordEdit(
        of id: String, mark: UInt64, version: Int,
        _ edit: (_ missed: [LoggedChange]) throws -> LoggedEdit
    ) throws -> UInt64 {
        switch try edit([]) {
        case .nothing: mark
        case .changes(let changes): try append(.changes(tableID: id, changeJSON: changes))
        case .deletion(let key): try append(.delete(tableID: id, key: key))
        }
    }
}
