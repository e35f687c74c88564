import Dispatch
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
/// An edit waits for its answer on no thread — its connection is suspended —
/// or on a thread of its own (`QueuedEdit.Waiter`): changes of rows and
/// sections wait on none; a snapshot `PUT`, a `PATCH` or a delete, on the
/// thread it runs on. A group whose first edit waits on no thread is led on
/// one of the edit runner's lead threads, which goes on to lead the next such
/// group itself once it answered this one: no thread is woken between two
/// commits of the table. A group whose first edit has a thread is handed to
/// that thread, which records it while this one is made.
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

/// One edit in its table's group commit. Its own thread waits on `wake` until
/// the edit is answered or its thread is handed the lead — or, when it has no
/// thread, its `Waiter`'s callbacks are called instead.
///
/// Unchecked `Sendable`: `stage`, `staged`, `base` and `baseTable` are used under
/// the table's lock only — `stage` by the leading thread too (validating the
/// group again), while the edit's own thread waits, so what it captures is not
/// used by two threads at once; `outcome` has its own lock, set before `wake`
/// is signalled and read by the edit's own thread after it waited.
final class QueuedEdit: @unchecked Sendable {
    enum Outcome {
        /// Commit the next group: this one when it was taken already.
        case lead(HandedGroup?)
        /// The edit's answer.
        case done(Result<EditResult, any Error>)
    }

    /// How an edit waits for its answer.
    enum Waiter: Sendable {
        /// On the thread that queued it, which leads its group when handed the lead.
        case thread
        /// On no thread: `lead` runs the commit of a group handed to it (on
        /// another thread); `answer` is called once with its answer.
        case callbacks(
            lead: @Sendable (HandedGroup?) -> Void, answer: @Sendable (Result<EditResult, any Error>) -> Void)
    }

    /// Validates the edit against a table, without changing it.
    let stage: (Table) throws -> StagedEdit
    /// Its `Idempotency-Key`, when it has one.
    let key: IdempotentRequest?
    /// Who asked for it (`Requester.auditActor`), recorded with its changes.
    let actor: String?
    /// What `stage` answered last.
    var staged: Result<StagedEdit, any Error> = .failure(TableServerError.storageUnavailable("not validated"))
    /// The version it was validated against, and the table it was validated
    /// on, let go once it is made (so that the table is then changed in place).
    var base = 0
    var baseTable: Table?
    private let waiter: Waiter
    private let outcome = Mutex<Outcome?>(nil)
    private let wake = DispatchSemaphore(value: 0)

    init(
        key: IdempotentRequest?, actor: String?, waiter: Waiter = .thread,
        _ stage: @escaping (Table) throws -> StagedEdit
    ) {
        self.stage = stage
        self.key = key
        self.actor = actor
        self.waiter = waiter
    }

    /// Whether it waits on no thread (its answer comes through callbacks).
    var waitsWithoutThread: Bool { if case .callbacks = waiter { true } else { false } }

    /// Whether it deletes the table.
    var deletes: Bool {
        if case .success(.deletion) = staged { true } else { false }
    }

    /// Whether it changes the table.
    var changes: Bool {
        guard case .success(let staged) = staged else { return false }
        return if case .changes = staged.logged { true } else { false }
    }

    /// Answers the edit: its thread returns `result`.
    func finish(_ result: Result<EditResult, any Error>) {
        switch waiter {
        case .thread:
            outcome.withLock { $0 = .done(result) }
            wake.signal()
        case .callbacks(_, let answer):
            answer(result)
        }
    }

    /// Hands the edit's thread the lead, with the group to commit when it
    /// was taken already.
    func lead(_ group: HandedGroup? = nil) {
        switch waiter {
        case .thread:
            outcome.withLock { $0 = .lead(group) }
            wake.signal()
        case .callbacks(let lead, _):
            lead(group)
        }
    }

    /// Waits for `finish` or `lead` (an edit waiting on its own thread).
    func wait() -> Outcome {
        wake.wait()
        guard let outcome = outcome.withLock({ $0 }) else { preconditionFailure("woken without an outcome") }
        return outcome
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
    /// Makes one edit through `log`'s group commit (`GroupCommit`): queues it
    /// and waits for the commit of its group, leading it when no commit of the
    /// table is in flight.
    func commitInGroup(
        _ handle: TableHandle, log: any TableLog, key: IdempotentRequest?,
        _ stage: @escaping (Table) throws -> StagedEdit
    ) throws -> EditResult {
        let edit = try handle.withState { state in
            let edit = QueuedEdit(key: key, actor: Requester.current.auditActor, stage)
            if Self.enqueue(edit, in: &state) { edit.lead() }
            return edit
        }
        editsInGroups.add(1, ordering: .relaxed)
        defer { editsInGroups.subtract(1, ordering: .relaxed) }
        while true {
            switch edit.wait() {
            case .lead(let group): commitGroup(group, handle, log: log)
            case .done(let result): return try result.get()
            }
        }
    }

    /// `commitInGroup` for an edit that waits on no thread, called on the
    /// connection's worker thread: queues the edit and returns; `answer` is
    /// called once with its answer, on the thread that made its group. When no
    /// commit of the table is in flight, the group's commit is led on one of
    /// `runner`'s lead threads (`leadGroups`). The edit counts against
    /// `runner`'s bounds until it is answered (`EditRunner.admit`): beyond
    /// them it throws `overloaded`.
    func queueInGroup(
        _ handle: TableHandle, id: String, log: any TableLog, key: IdempotentRequest?, runner: EditRunner,
        _ stage: @escaping (Table) throws -> StagedEdit,
        answer: @escaping @Sendable (Result<EditResult, any Error>) -> Void
    ) throws {
        if let refusal = runner.admit(table: id) { throw refusal }
        editsInGroups.add(1, ordering: .relaxed)
        let leave: @Sendable () -> Void = { [self] in
            runner.release(table: id)
            editsInGroups.subtract(1, ordering: .relaxed)
        }
        let waiter = QueuedEdit.Waiter.callbacks(
            lead: { [self] group in runner.lead { self.leadGroups(from: group, handle, log: log, runner: runner) } },
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
    /// queue) for edits that wait on no thread, on one of `runner`'s lead
    /// threads, and then of each group after it whose first edit waits on no
    /// thread either: no thread is woken between one commit of the table and
    /// the next. While another table's lead waits for a thread, the next
    /// group queues behind it instead (`EditRunner.lead`), so that every
    /// table's commits take turns.
    private func leadGroups(from handed: HandedGroup?, _ handle: TableHandle, log: any TableLog, runner: EditRunner) {
        var next = commitGroup(handed, handle, log: log, continuing: true)
        while let group = next {
            guard !runner.leadsWait else {
                return runner.lead { self.leadGroups(from: group, handle, log: log, runner: runner) }
            }
            next = commitGroup(group, handle, log: log, continuing: true)
        }
    }

    /// Records `handed` (or the next group of the table's queue) through `log`
    /// in one `recordEdit`, then takes the next group off the queue, makes
    /// each of this one's edits, and answers them — or, when the record fails,
    /// answers every waiting edit with its error. The next group is returned
    /// when this thread is `continuing` and its first edit waits on no thread:
    /// this thread leads it next. Otherwise it is handed to its leader, and
    /// recorded while this group is made.
    @discardableResult
    private func commitGroup(
        _ handed: HandedGroup?, _ handle: TableHandle, log: any TableLog, continuing: Bool = false
    ) -> HandedGroup? {
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
        // Answered once the table's lock is released: an answer may resume
        // a connection, or wake a thread.
        let (answers, following) = handle.withAnyState { state in
            settle(group, recorded: recorded, continuing: continuing, in: &state)
        }
        for (edit, answer) in answers { edit.finish(answer) }
        return following
    }

    /// After `group` was recorded (or refused by the log), under the table's
    /// lock: takes the next group off the queue — handed to its leader, or
    /// returned as `following` when this thread is `continuing` and its first
    /// edit waits on no thread — and makes each edit of `group`; or, when the
    /// record failed, answers every waiting edit with its error. Answers what
    /// each edit is to be answered, once the lock is released.
    private func settle(
        _ group: [QueuedEdit], recorded: Result<UInt64, any Error>, continuing: Bool,
        in state: inout TableHandle.State
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
            let next = state.group.queued.first
            if let next {
                let group = Self.takeGroup(&state)
                if continuing && next.waitsWithoutThread { following = group } else { next.lead(group) }
            }
            answers = group.map { ($0, make($0, in: &state)) }
            state.group.release(group)
            if next == nil { state.group.reset() }
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

    /// `commitInGroup` with a log that records at once (`TableLog.recordsAtOnce`,
    /// no log): the edit is staged, recorded and made in one hold of the
    /// table's lock — a group of one, since no commit of the table is ever in
    /// flight outside it — and answered by returning.
    func commitAtOnce(
        _ handle: TableHandle, log: any TableLog, key: IdempotentRequest?,
        _ stage: @escaping (Table) throws -> StagedEdit
    ) throws -> EditResult {
        try handle.withState { state in
            let edit = QueuedEdit(key: key, actor: Requester.current.auditActor, stage)
            state.group.enqueue(edit, on: state.table, keys: state.keys)
            let group = state.group.takeGroup()
            let recorded = Result {
                try Self.storageErrors {
                    try log.recordEdit(of: state.table.id, mark: state.logMark, version: edit.base) { _ in
                        GroupCommit.logged(group)
                    }
                }
            }
            return try settle(group, recorded: recorded, continuing: false, in: &state).answers[0].1.get()
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
        var result: EditResult
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
            result = EditResult(table: after, batch: prepared.batch, json: json, changes: changes)
        case .steps(let steps):
            batches = steps.map(\.batch)
            let changes = steps.map { events.change(version: $0.table.version, batch: $0.batch, table: $0.table) }
            result = EditResult(table: steps.last?.table ?? validatedOn ?? state.table, changes: changes)
            if inPlace { state.table = result.table }
        case .deletion:
            result = EditResult(table: validatedOn ?? state.table, deleted: true)
            if inPlace { TableHandle.markDeleted(&state) }
        }
        if let actor = edit.actor {
            for index in result.changes.indices { result.changes[index].actor = actor }
        }
        state.remember(edit.key, of: staged, made: result)
        if inPlace && !result.changes.isEmpty { publish(result.changes, by: batches, in: &state) }
        return .success(result)
    }
}
