import TableJournal
import TableModel

/// Where the store makes a change durable before it applies, publishes or
/// answers it: the journal of one server (`--journal`) or the database that
/// replicas share (`--database`); without either, `UnloggedTable`. The store
/// records a creation under the new table's lock, and the edits of a table in
/// groups (`GroupCommit`, one `recordEdit` a group) with its lock released; it
/// never knows which log it has (docs/ARCHITECTURE.md, "Durable logs").
///
/// A log that cannot record throws: the store then answers 503
/// `storage-unavailable` and changes nothing.
protocol TableLog: Sendable {
    /// Whether a record costs nothing worth waiting for (no log): an edit is
    /// then staged, recorded and made in one hold of its table's lock
    /// (`TableStore.commitAtOnce`), a group of one.
    var recordsAtOnce: Bool { get }

    /// Records a new table at its version, with the `Idempotency-Key` of the
    /// request that creates it; answers the log's mark for the table (kept in
    /// `TableHandle.State.logMark` and handed back to `recordEdit`). A log
    /// shared with other replicas throws `idempotencyKeyInUse` when one of
    /// them recorded `key` meanwhile.
    func recordCreation(of table: Table, key: ChangeKey?) throws -> UInt64

    /// Records one group of edits of table `id` (`GroupCommit`), validated
    /// on the table at `version` with `mark`, at once: for the journal, one
    /// record appended and (per `--fsync`) flushed; for the database, one
    /// transaction. Calls `edit` with the changes the log holds after `version`
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
/// A batch is held in a box of its own (`indirect`), so that handing the
/// staged edit along the pipeline copies a reference, not the batch.
enum StagedEdit: Sendable {
    /// One batch (`apply`), prepared on the table (an empty one changes
    /// nothing), with its change JSON (`{"version", "batch"}`).
    indirect case batch(PreparedBatch, json: [UInt8])
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
            // With the table's `access` a snapshot may set, which only the log keeps.
            steps.isEmpty
                ? .nothing
                : .changes(steps.map { $0.batch.changeJSONBytes(version: $0.table.version, withAccess: true) })
        case .deletion:
            .deletion(nil)
        }
    }
}

/// What an edit answers once made: the table after it, the batch it applied
/// and its change JSON (`apply`), the changes it published, and whether it
/// deleted the table. A reference, made once: it is handed from the table's
/// lock through the answer's callbacks to the route, and a copy of each of
/// its values at each step was a fifth of a single-row move's work
/// (docs/perf-history/not-met-and-left-to-do.md).
final class EditResult: Sendable {
    let table: Table
    let batch: Batch
    let json: [UInt8]
    let changes: [Change]
    let deleted: Bool

    init(table: Table, batch: Batch = Batch(), json: [UInt8] = [], changes: [Change] = [], deleted: Bool = false) {
        self.table = table
        self.batch = batch
        self.json = json
        self.changes = changes
        self.deleted = deleted
    }
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

/// No log: a group is committed at once, with nothing recorded. `recordEdit`
/// does not call its `edit`: without a log nothing was missed, and what it
/// would answer to record is not needed.
struct UnloggedTable: TableLog {
    var recordsAtOnce: Bool { true }

    func recordCreation(of table: Table, key: ChangeKey?) -> UInt64 { 0 }

    func recordEdit(
        of id: String, mark: UInt64, version: Int,
        _ edit: (_ missed: [LoggedChange]) throws -> LoggedEdit
    ) throws -> UInt64 {
        // Nothing is recorded, so what would be is not made either (`GroupCommit.logged`).
        mark
    }

    func lookUp(_ id: String) -> Bool { false }

    func directoryKey(_ key: String) -> ChangeKey? { nil }
}

/// The journal as a table log: one record per group of edits, appended (and
/// flushed per `--fsync`) before its edits are applied.
extension Journal: TableLog {
    var recordsAtOnce: Bool { false }

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
