import Synchronization
import TableAccess
import TableModel

/// The edits of one table waiting for, or in, its group commit: whatever the
/// log, the edits that arrive while one commit of the table is in flight are
/// committed together, in the next — one journal record appended and flushed,
/// or one database transaction; without a log, a group commits at once
/// (docs/SCALING.md, "Group commit").
///
/// An edit is validated under the table's lock against the table as it will be
/// once every edit queued before it is made — the `tip`; `If-Match` against
/// its version — and queued. When no commit of the table is in flight, it
/// leads: a thread takes the queue as one group and records the group through
/// the log in one `recordEdit` (one transaction) with the table's lock
/// released, so that later edits queue meanwhile; then, under the lock, it
/// takes the next group off the queue and makes each edit of its own group in
/// order; then it answers them.
///
/// An edit waits for its answer on no thread: it is queued from the thread
/// it is staged on (a worker thread, or a heavy thread for a snapshot `PUT`),
/// which returns at once, and answered through its callbacks
/// (`QueuedEdit.Waiter`) — its connection suspended meanwhile. A group is led
/// on one of the `GroupLeaders`' lead threads, which goes on to lead the next
/// group of the table itself once it answered this one: no thread is woken
/// between two commits of the table.
///
/// When the log hands over changes made through other replicas (the group was
/// validated on an older version), they are applied and every queued edit is
/// validated again, in order, against the latest version, before the group is
/// recorded. When the record fails, every edit of the group, and every edit
/// queued behind it (validated on top of it), fails with the same error, and
/// none is made: the table stays as it was committed.
struct GroupCommit: Sendable {
    /// Validated edits waiting for the next commit, in order.
    var queued: [QueuedEdit] = []
    /// The table once every queued or committing edit before `lastStaged` is
    /// made; nil when none is.
    var tip: Table?
    /// The last edit staged, whose change is not in `tip` yet: it is applied to
    /// a copy only when another edit is staged behind it (`currentTip`), so
    /// that a lone edit changes the table in place, with no copy of what it
    /// touches (`make`).
    var lastStaged: QueuedEdit?
    /// Whether an edit that makes `tip` deletes the table.
    var tipDeleted = false
    /// Whether a thread is committing a group of this table (or was handed the lead).
    var isCommitting = false
    /// The groups recorded (or refused by the log) and answered so far.
    var finished = 0
    /// The `Idempotency-Key`s of the edits queued or committing: another edit
    /// with one of them is refused (409) until that edit is answered.
    var pendingKeys: Set<String> = []

    /// Validates `edit` against the tip (`table`, the table as committed, when
    /// nothing waits) and queues it; its key is looked up in `keys` (the
    /// table's, as committed) and among the edits before it.
    mutating func enqueue(_ edit: QueuedEdit, on table: Table, keys: IdempotencyKeys) {
        stage(edit, on: currentTip(on: table), keys: keys)
        queued.append(edit)
    }

    /// Validates `edit`, committed at once (a log that records at once), on
    /// `table` as committed — nothing waits or commits in the same hold of
    /// the table's lock — and answers its group: itself.
    mutating func stageAlone(_ edit: QueuedEdit, on table: Table, keys: IdempotencyKeys) -> [QueuedEdit] {
        precondition(queued.isEmpty && !isCommitting, "an edit committed at once while a group waits")
        stage(edit, on: table, keys: keys)
        return [edit]
    }

    /// The table as every edit staged so far leaves it: `table` (as committed)
    /// when none waits.
    private mutating func currentTip(on table: Table) -> Table {
        guard let last = lastStaged, var after = last.baseTable else { return tip ?? table }
        lastStaged = nil
        switch last.staged {
        case .success(.batch(let prepared, _)): after.apply(prepared)
        case .success(.steps(let steps)): if let end = steps.last { after = end.table }
        default: break
        }
        tip = after
        return after
    }

    /// Validates `edit` against `base`; the tip moves past it (`lastStaged`).
    private mutating func stage(_ edit: QueuedEdit, on base: Table, keys: IdempotencyKeys) {
        edit.base = base.version
        edit.baseTable = base
        guard !tipDeleted else {
            edit.staged = .failure(TableServerError.tableGone(base.id))
            return
        }
        do {
            if let key = edit.key {
                guard !pendingKeys.contains(key.key) else { throw TableServerError.idempotencyKeyInUse(key.key) }
                try keys.check(key)
            }
            let staged = try edit.stage(base)
            if let key = edit.key { pendingKeys.insert(key.key) }
            edit.staged = .success(staged)
            if case .deletion = staged { tipDeleted = true }
            lastStaged = edit
        } catch {
            edit.staged = .failure(error)
        }
    }

    /// Takes the next group off the queue: every edit up to a deletion that
    /// follows a change (one record holds changes or a deletion), which waits
    /// for the next group.
    mutating func takeGroup() -> [QueuedEdit] {
        var count = 0
        var changes = false
        for edit in queued {
            if edit.deletes && changes { break }
            if edit.changes { changes = true }
            count += 1
        }
        defer { queued.removeFirst(count) }
        return Array(queued.prefix(count))
    }

    /// Validates `group` and every edit queued behind it again, in order,
    /// against `table` (the latest version), and takes the group anew.
    mutating func restage(_ group: [QueuedEdit], on table: Table, keys: IdempotencyKeys) -> [QueuedEdit] {
        let edits = group + queued
        queued = []
        tip = nil
        lastStaged = nil
        tipDeleted = false
        pendingKeys = []
        for edit in edits { enqueue(edit, on: table, keys: keys) }
        return takeGroup()
    }

    /// After `group` is answered: its keys are no longer pending.
    mutating func release(_ group: [QueuedEdit]) {
        for edit in group {
            if let key = edit.key, case .success = edit.staged { pendingKeys.remove(key.key) }
        }
    }

    /// After a failed record: the edits queued behind the group, which
    /// were validated on top of it, are answered too; nothing waits any more.
    mutating func dropQueued() -> [QueuedEdit] {
        defer { reset() }
        return queued
    }

    /// Nothing waits and nothing is being committed.
    mutating func reset() {
        queued = []
        tip = nil
        lastStaged = nil
        tipDeleted = false
        isCommitting = false
        pendingKeys = []
    }

    /// What the log records for `group`: the changes of its edits, in order, or
    /// its deletion.
    static func logged(_ group: [QueuedEdit]) -> LoggedEdit {
        var changes: [[UInt8]] = []
        for edit in group {
            guard case .success(let staged) = edit.staged else { continue }
            switch staged.logged(under: edit.key, actor: edit.actor) {
            case .nothing: break
            case .changes(let more): changes += more
            case .deletion(let key): return .deletion(key)
            }
        }
        return changes.isEmpty ? .nothing : .changes(changes)
    }
}

/// One edit in its table's group commit, answered through its `Waiter`'s
/// callbacks: no thread waits for it.
///
/// Unchecked `Sendable`: `stage`, `staged`, `base` and `baseTable` are used
/// under the table's lock only — `stage` by the leading thread too
/// (validating the group again), never by two threads at once.
final class QueuedEdit: @unchecked Sendable {
    /// How an edit in a group commit is answered, on no thread of its own:
    /// `lead` runs the commit of a group handed to it (on a lead thread);
    /// `answer` is called once with its answer.
    struct Waiter: Sendable {
        let lead: @Sendable (HandedGroup?) -> Void
        let answer: @Sendable (Result<EditResult, any Error>) -> Void
    }

    /// Validates the edit against a table, without changing it.
    let stage: (Table) throws -> StagedEdit
    /// Its `Idempotency-Key`, when it has one.
    let key: IdempotentRequest?
    /// Who asked for it (`Requester.auditActor`), recorded with its changes.
    let actor: String?
    /// What `stage` answered last.
    var staged: Result<StagedEdit, any Error> = .failure(QueuedEdit.notValidated)
    /// The version it was validated against, and the table it was validated
    /// on, let go once it is made (so that the table is then changed in place).
    var base = 0
    var baseTable: Table?
    /// Nil for an edit committed at once (`commitAtOnce`), answered by returning.
    private let waiter: Waiter?

    init(key: IdempotentRequest?, actor: String?, waiter: Waiter?, _ stage: @escaping (Table) throws -> StagedEdit) {
        self.stage = stage
        self.key = key
        self.actor = actor
        self.waiter = waiter
    }

    /// Whether it deletes the table.
    var deletes: Bool {
        if case .success(.deletion) = staged { true } else { false }
    }

    /// Whether it changes the table.
    var changes: Bool {
        guard case .success(let staged) = staged else { return false }
        return if case .changes = staged.logged { true } else { false }
    }

    /// What an edit not validated yet holds: one error made once, not one an edit.
    private static let notValidated: any Error = TableServerError.storageUnavailable("not validated")

    /// Answers the edit.
    func finish(_ result: Result<EditResult, any Error>) {
        waiter?.answer(result)
    }

    /// Has the edit's group led, with the group to commit when it was taken already.
    func lead(_ group: HandedGroup? = nil) {
        waiter?.lead(group)
    }
}

/// A group taken off a table's queue under its lock, with what its leader
/// records it with: the table's id and log mark.
struct HandedGroup {
    var edits: [QueuedEdit]
    var id: String
    var mark: UInt64
}

extension TableStore {
    /// Queues one edit in its table's group commit (`GroupCommit`), from the
    /// thread it is staged on, and returns: `answer` is called once with its
    /// answer, on the thread that made its group. When no commit of the
    /// table is in flight, the group's commit is led on one of `leaders`'
    /// lead threads (`leadGroups`). The edit counts against `leaders`'
    /// bounds until it is answered (`GroupLeaders.admit`): beyond them it
    /// throws `overloaded`, and nothing is queued.
    func queueInGroup(
        _ handle: TableHandle, id: String, log: any TableLog, key: IdempotentRequest?, leaders: GroupLeaders,
        _ stage: @escaping (Table) throws -> StagedEdit,
        answer: @escaping @Sendable (Result<EditResult, any Error>) -> Void
    ) throws {
        if let refusal = leaders.admit(table: id) { throw refusal }
        editsInGroups.add(1, ordering: .relaxed)
        let leave: @Sendable () -> Void = { [self] in
            leaders.release(table: id)
            editsInGroups.subtract(1, ordering: .relaxed)
        }
        let waiter = QueuedEdit.Waiter(
            lead: { [self] group in leaders.lead { self.leadGroups(from: group, handle, log: log, leaders: leaders) } },
            answer: { result in
                leave()
                answer(result)
            })
        let queued: (edit: QueuedEdit, leads: Bool)
        do {
            queued = try handle.withState { state in
                let edit = QueuedEdit(key: key, actor: Requester.current.auditActor, waiter: waiter, stage)
                return (edit, Self.enqueue(edit, in: &state))
            }
        } catch {
            leave()
            throw error
        }
        if queued.leads { queued.edit.lead() }
    }

    /// Queues `edit` in the table's group commit; answers whether it leads
    /// (no commit of the table was in flight).
    private static func enqueue(_ edit: QueuedEdit, in state: inout TableHandle.State) -> Bool {
        state.group.enqueue(edit, on: state.table, keys: state.keys)
        guard !state.group.isCommitting else { return false }
        state.group.isCommitting = true
        return true
    }

    /// Leads the commit of `handed` (or of the next group of the table's
    /// queue) on one of `leaders`' lead threads, and then of each group
    /// queued behind it: no thread is woken between one commit of the table
    /// and the next. While another table's lead waits for a thread, the next
    /// group queues behind it instead (`GroupLeaders.lead`), so that every
    /// table's commits take turns.
    private func leadGroups(from handed: HandedGroup?, _ handle: TableHandle, log: any TableLog, leaders: GroupLeaders)
    {
        var next = commitGroup(handed, handle, log: log)
        while let group = next {
            guard !leaders.leadsWait else {
                return leaders.lead { self.leadGroups(from: group, handle, log: log, leaders: leaders) }
            }
            next = commitGroup(group, handle, log: log)
        }
    }

    /// Records `handed` (or the next group of the table's queue) through `log`
    /// in one `recordEdit`, then takes the next group off the queue, makes
    /// each of this one's edits, and answers them — or, when the record fails,
    /// answers every waiting edit with its error. Returns the next group,
    /// which this thread leads next.
    private func commitGroup(_ handed: HandedGroup?, _ handle: TableHandle, log: any TableLog) -> HandedGroup? {
        let taken = handed ?? handle.withAnyState { Self.takeGroup(&$0) }
        var group = taken.edits
        let recorded = Result {
            var calls = 0
            return try Self.storageErrors {
                try log.recordEdit(of: taken.id, mark: taken.mark, version: group.first?.base ?? 0) { missed in
                    calls += 1
                    if calls > 1 || !missed.isEmpty {
                        // Validated on an older version than the log's latest:
                        // catch up, and validate every queued edit again.
                        group = try handle.withState { state in
                            try applyLogged(missed.filter { $0.version > state.table.version }, in: &state)
                            return state.group.restage(group, on: state.table, keys: state.keys)
                        }
                    }
                    return GroupCommit.logged(group)
                }
            }
        }
        // Answered once the table's lock is released: an answer may resume a connection.
        let (answers, following) = handle.withAnyState { state in
            settle(group, recorded: recorded, in: &state)
        }
        for (edit, answer) in answers { edit.finish(answer) }
        return following
    }

    /// After `group` was recorded (or refused by the log), under the table's
    /// lock: takes the next group off the queue, returned as `following` for
    /// this thread to lead, and makes each edit of `group`; or, when the
    /// record failed, answers every waiting edit with its error. Answers what
    /// each edit is to be answered, once the lock is released.
    private func settle(
        _ group: [QueuedEdit], recorded: Result<UInt64, any Error>, in state: inout TableHandle.State
    ) -> (answers: [(QueuedEdit, Result<EditResult, any Error>)], following: HandedGroup?) {
        state.group.finished += 1
        var answers: [(QueuedEdit, Result<EditResult, any Error>)] = []
        var following: HandedGroup?
        switch recorded {
        case .success(let mark):
            // The journal's mark moves with each record: a snapshot copies
            // the table with the mark of the record that made it.
            if !state.isDeleted { state.logMark = mark }
            // The next group was validated on top of this one, which is
            // committed: it may be recorded now.
            if !state.group.queued.isEmpty { following = Self.takeGroup(&state) }
            answers = group.map { ($0, make($0, in: &state)) }
            state.group.release(group)
            if following == nil { state.group.reset() }
        case .failure(let error):
            state.group.release(group)
            // A repeat of a key made before is answered as it was, log or no log.
            answers = group.map { ($0, .failure($0.keyAnswer.map(state.restoringAnswer) ?? error)) }
            // Those queued behind were never sent: they were not made.
            let behind =
                error.isOutcomeUnknown
                ? TableServerError.storageUnavailable("an edit before it has an unknown outcome") : error
            answers += state.group.dropQueued().map {
                ($0, .failure($0.keyAnswer.map(state.restoringAnswer) ?? behind))
            }
        }
        return (answers, following)
    }

    /// An edit through a log that records at once (`TableLog.recordsAtOnce`,
    /// no log): the edit is staged, recorded and made in one hold of the
    /// table's lock — a group of one, since no commit of the table is ever in
    /// flight outside it — and answered by returning.
    func commitAtOnce(
        _ handle: TableHandle, log: any TableLog, key: IdempotentRequest?,
        _ stage: @escaping (Table) throws -> StagedEdit
    ) throws -> EditResult {
        try handle.withState { state in
            let edit = QueuedEdit(key: key, actor: Requester.current.auditActor, waiter: nil, stage)
            let group = state.group.stageAlone(edit, on: state.table, keys: state.keys)
            let recorded = Result {
                try Self.storageErrors {
                    try log.recordEdit(of: state.table.id, mark: state.logMark, version: edit.base) { _ in
                        GroupCommit.logged(group)
                    }
                }
            }
            return try settle(group, recorded: recorded, in: &state).answers[0].1.get()
        }
    }

    /// Takes the next group off the table's queue, for its leader.
    private static func takeGroup(_ state: inout TableHandle.State) -> HandedGroup {
        HandedGroup(edits: state.group.takeGroup(), id: state.table.id, mark: state.logMark)
    }

    /// Makes a committed edit of a group in the table and publishes its changes,
    /// unless the follower made it already (from the same change JSON, read
    /// back from the database once committed) or the table was deleted since.
    /// The table as committed is the one the edit was validated on (unless
    /// so): a batch is applied to it in place.
    private func make(_ edit: QueuedEdit, in state: inout TableHandle.State) -> Result<EditResult, any Error> {
        let staged: StagedEdit
        switch edit.staged {
        case .failure(let error): return .failure(state.restoringAnswer(error))
        case .success(let made): staged = made
        }
        let inPlace = !state.isDeleted && state.table.version == edit.base
        // Let go of in place, so that the table's storage is held once when changed.
        let validatedOn = inPlace ? nil : edit.baseTable
        edit.baseTable = nil
        var batches: [Batch] = []
        let result: EditResult
        switch staged {
        case .batch(let prepared, let json):
            batches = [prepared.batch]
            let after: Table
            if inPlace {
                state.table.apply(prepared)
                after = state.table
            } else {
                var made = validatedOn ?? state.table
                made.apply(prepared)
                after = made
            }
            let changes =
                prepared.batch.isEmpty
                ? [] : [events.change(json: json, version: after.version, batch: prepared.batch, table: after)]
            result = EditResult(table: after, batch: prepared.batch, json: json, changes: Self.by(edit.actor, changes))
        case .steps(let steps):
            batches = steps.map(\.batch)
            let changes = steps.map { events.change(version: $0.table.version, batch: $0.batch, table: $0.table) }
            result = EditResult(
                table: steps.last?.table ?? validatedOn ?? state.table, changes: Self.by(edit.actor, changes))
            if inPlace { state.table = result.table }
        case .deletion:
            result = EditResult(table: validatedOn ?? state.table, deleted: true)
            if inPlace { TableHandle.markDeleted(&state) }
        }
        state.remember(edit.key, of: staged, made: result)
        if inPlace && !result.changes.isEmpty { publish(result.changes, by: batches, in: &state) }
        return .success(result)
    }

    /// `changes`, recorded as made by `actor` (`Requester.auditActor`) when there is one.
    private static func by(_ actor: String?, _ changes: [Change]) -> [Change] {
        guard let actor else { return changes }
        var changes = changes
        for index in changes.indices { changes[index].actor = actor }
        return changes
    }
}
