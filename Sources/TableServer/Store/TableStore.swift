import MicroHTTP
import Synchronization
import TableJournal
import TableModel
import TableRendering

/// Every table the server holds, by id, in the order they were created.
///
/// The directory of tables has its own `Mutex`; each table's content sits behind
/// its `TableHandle`'s. A request takes the directory lock only to find its table.
/// Lock order: a table's lock, then the directory's (creating a table holds both).
///
/// With a `log` (the journal or the shared database, `TableLog`), every change
/// (create, batch, PATCH, select, snapshot PUT, delete) is recorded there after
/// it validated and before it is applied, published or answered: a creation
/// under the new table's lock, an edit through its table's group commit
/// (`GroupCommit`), which records a group of edits at once with the lock
/// released — without a log too, where the group is committed at once. When
/// the log cannot record it, the request is answered 503
/// `storage-unavailable` and nothing changes; reads and streams go on.
final class TableStore: Sendable {
    struct Directory: Sendable {
        var handles: [String: TableHandle] = [:]
        var order: [String] = []
    }

    let directory = Mutex(Directory())
    let history: Int
    /// Bytes of changes kept per table (see `ChangeLog`).
    let historyBytes: Int
    /// The most tables `create` makes; tables loaded from a log are not refused.
    let maxTables: Int
    let events: ChangeEvents
    let log: (any TableLog)?
    /// The server's life: a fresh one at each start without a journal or database (`ServerLife`).
    var life: ServerLife { events.life }
    /// How each table's deliveries reach its streams (`EventDelivery`).
    let fanOut: EventFanOut
    /// Reads waiting for a table's version (`Min-Version`).
    let versionWaiters = VersionWaiters()
    /// Edits validated and queued in their table's group commit, or in the
    /// commit in flight (`GroupCommit`); `/metrics` shows it.
    let editsInGroups = Atomic<Int>(0)
    /// The `Idempotency-Key`s of creates and deletes.
    let directoryKeys = Mutex(DirectoryKeys())
    /// The threads that lead the group commits, and the bound on the edits
    /// waiting for the log; nil when there is no log or it records at once.
    let leaders: GroupLeaders?

    init(
        history: Int, historyBytes: Int = .max, maxTables: Int = .max,
        renderer: TableRenderer, fanOut: EventFanOut = .batched, log: (any TableLog)? = nil,
        life: ServerLife = .lasting, leaderLimits: GroupLeaders.Limits = GroupLeaders.Limits()
    ) {
        self.fanOut = fanOut
        self.history = history
        self.historyBytes = historyBytes
        self.maxTables = maxTables
        self.events = ChangeEvents(renderer: renderer, life: life)
        self.log = log
        leaders = log.flatMap { log in
            log.recordsAtOnce
                ? nil : GroupLeaders(limits: leaderLimits, waitingFor: log is Journal ? "the journal" : "the database")
        }
    }

    // MARK: Tables

    /// A handle of `table` with this store's history bounds and fan-out.
    func makeHandle(_ table: Table) -> TableHandle {
        TableHandle(table: table, log: ChangeLog(capacity: history, byteLimit: historyBytes), fanOut: fanOut)
    }

    /// Every table, as it is now, in creation order.
    func tables() -> [Table] {
        let handles = directory.withLock { directory in directory.order.compactMap { directory.handles[$0] } }
        return handles.map(\.table)
    }

    /// The views event streams follow now, in all tables (`/metrics`).
    func openViewCount() -> Int {
        let handles = directory.withLock { Array($0.handles.values) }
        return handles.reduce(0) { $0 + $1.openViewCount }
    }

    /// The views held in memory now, in all tables: those followed, and those
    /// whose last stream left that their keeper has not freed yet (`/metrics`).
    func heldViewCount() -> Int {
        let handles = directory.withLock { Array($0.handles.values) }
        return handles.reduce(0) { $0 + $1.heldViewCount }
    }

    func handle(_ id: String) throws -> TableHandle {
        guard let handle = directory.withLock({ $0.handles[id] }) else { throw TableServerError.tableNotFound(id) }
        return handle
    }

    func table(_ id: String) throws -> Table {
        try handle(id).table
    }

    /// Adds a table at version 0; refused when the id is in use or when the
    /// server holds `maxTables` already. With `key`, made at most once
    /// (`makeOnce`): the log records the key with the table.
    ///
    /// A table this server holds may have been deleted through another
    /// replica: before it answers `tableExists`, the create asks the log
    /// (`TableLog.lookUp`), as an edit does before a 404 (docs/API.md,
    /// "Replicas").
    @discardableResult
    func create(_ table: Table, key: IdempotentRequest? = nil) throws -> Table {
        var made = table
        made.version = 0
        let insertIt = { [self, made] in
            try insert(made, limit: maxTables) { try log?.recordCreation(of: made, key: key?.changeKey()) ?? 0 }
        }
        try makeOnce(key) {
            do {
                try insertIt()
            } catch TableServerError.tableExists(let id) {
                guard let log, try Self.storageErrors({ try log.lookUp(id) }) else {
                    throw TableServerError.tableExists(id)
                }
                try insertIt()
            }
        }
        return made
    }

    /// `create`, answered through `answer` rather than returned. With a log
    /// that does not record at once (the journal, the shared database), the
    /// table is recorded on one of the `leaders`' lead threads — a creation is
    /// a group of one — counted against their bounds (`overloaded` beyond
    /// them, and nothing made) as the requester of now: no worker thread
    /// waits for the log (docs/ARCHITECTURE.md, "The edit pipeline").
    /// Otherwise it is made before this returns.
    func create(
        _ table: Table, key: IdempotentRequest?, answer: @escaping @Sendable (Result<Table, any Error>) -> Void
    ) {
        guard let leaders else { return answer(Result { try create(table, key: key) }) }
        if let refusal = leaders.admit(table: table.id) { return answer(.failure(refusal)) }
        let made = BoundRows.carried { [self] in Result { try create(table, key: key) } }
        leaders.lead {
            let outcome = made()
            leaders.release(table: table.id)
            answer(outcome)
        }
    }

    /// Adds `table` as it is, version included, with the log's mark `record()`
    /// answers. The table is in the directory, but locked, while it is
    /// recorded, so no change to it can be recorded before its creation; when the
    /// record fails, the table is taken out again and marked deleted.
    func insert(_ table: Table, limit: Int = .max, record: () throws -> UInt64) throws {
        let handle = makeHandle(table)
        try handle.withState { state in
            let refusal = directory.withLock { directory -> TableServerError? in
                guard directory.handles[table.id] == nil else { return .tableExists(table.id) }
                guard directory.handles.count < limit else { return .tooManyTables(limit) }
                directory.handles[table.id] = handle
                directory.order.append(table.id)
                return nil
            }
            if let refusal { throw refusal }
            do {
                state.logMark = try record()
                versionWaiters.moved(table.id, to: table.version)
            } catch {
                state.isDeleted = true
                removeFromDirectory(handle, id: table.id)
                throw TableServerError.storage(error)
            }
        }
    }

    /// Deletes a table: recorded, and marked deleted so no later edit reaches it,
    /// under its lock; then taken out of the directory and its streams ended.
    /// With `key`, made at most once (`makeOnce`): the log records the key
    /// with the deletion. `answer` is called once, as `edit`'s.
    func delete(
        _ id: String, ifMatch: String?, key: IdempotentRequest? = nil,
        answer: @escaping @Sendable (Result<EditResult, any Error>) -> Void
    ) {
        let stage: @Sendable (Table) throws -> StagedEdit = { table in
            try Self.checkPrecondition(ifMatch, version: table.version)
            return .deletion
        }
        makeOnce(key, { [self] made in edit(id, key: key, stage, answer: made) }, answer: answer)
    }

    func removeFromDirectory(_ handle: TableHandle, id: String) {
        directory.withLock { directory in
            guard directory.handles[id] === handle else { return }
            directory.handles[id] = nil
            directory.order.removeAll { $0 == id }
        }
    }

    // MARK: Edits

    /// The stage of one batch: `If-Match` checked against the
    /// table's version, then the batch `makeBatch` builds, prepared.
    static func batchStage(
        ifMatch: String?, _ makeBatch: @escaping @Sendable (Table) throws -> Batch
    ) -> @Sendable (Table) throws -> StagedEdit {
        { table in
            try checkPrecondition(ifMatch, version: table.version)
            let batch = try makeBatch(table)
            do throws(BatchError) {
                // The change's JSON is written once, for the log, the feed, the
                // event and the answer.
                let prepared = try table.prepare(batch)
                let version = prepared.batch.isEmpty ? table.version : table.version + 1
                return .batch(prepared, json: prepared.batch.changeJSONBytes(version: version))
            } catch {
                throw TableServerError.refused(error)
            }
        }
    }

    /// The stage of a snapshot `PUT`: `If-Match` checked against the
    /// table's version, then the table's content replaced with `snapshot`, as
    /// consecutive UIKit-valid batches.
    static func snapshotStage(_ snapshot: Table, ifMatch: String?) -> @Sendable (Table) throws -> StagedEdit {
        { table in
            try checkPrecondition(ifMatch, version: table.version)
            // Every step is applied to a copy, so that a refusal leaves the table
            // as it was; each step's table is kept to render that step's event from.
            var steps: [StagedEdit.Step] = []
            var working = table
            for batch in SnapshotDiff.batches(from: working, to: snapshot) {
                do throws(BatchError) {
                    let applied = try working.apply(batch)
                    steps.append(StagedEdit.Step(batch: applied, table: working))
                } catch {
                    throw TableServerError.refused(error)
                }
            }
            // One record for every step: a crash keeps all of them or none.
            return .steps(steps)
        }
    }

    /// Makes one edit: `stage` validates it against the table (without
    /// changing it) and answers what it does; the log records that, and only
    /// then is it made and published; `answer` is called once with the
    /// outcome. Whatever the log, this is the one path of an edit of a table
    /// (docs/ARCHITECTURE.md, "The edit pipeline"): without a log, or with one
    /// that records at once, the edit is committed at once and answered
    /// before this returns (`commitAtOnce`); otherwise it is queued in its
    /// table's group commit from the calling thread, which returns at once,
    /// and answered on the thread that made its group (`queueInGroup`) —
    /// refused `overloaded` beyond the `leaders`' bounds, and nothing made.
    ///
    /// When the table is not here, or was deleted or re-created through
    /// another replica, the edit asks the log first (`TableLog.lookUp`, on
    /// the store's one look-up thread) and is made on the table the log holds
    /// now; it answers 404 only when the log has no such table either
    /// (docs/API.md, "Replicas").
    ///
    /// With `key` (an `Idempotency-Key`), the key is looked up under the
    /// table's lock, after catching up with the log, before `stage` runs: a
    /// key of an edit made (here, or through another replica) answers
    /// `IdempotentRepeat` with that edit's answer, or 422 for another request;
    /// a new key is recorded with the edit's last change (`ChangeKey`).
    func edit(
        _ id: String, key: IdempotentRequest? = nil, _ stage: @escaping @Sendable (Table) throws -> StagedEdit,
        answer: @escaping @Sendable (Result<EditResult, any Error>) -> Void
    ) {
        edit(id, key: key, stage, askedLog: false, answer: answer)
    }

    private func edit(
        _ id: String, key: IdempotentRequest?, _ stage: @escaping @Sendable (Table) throws -> StagedEdit,
        askedLog: Bool, answer: @escaping @Sendable (Result<EditResult, any Error>) -> Void
    ) {
        let retry = Retry(id: id, key: key, stage: stage, askedLog: askedLog)
        guard let handle = directory.withLock({ $0.handles[id] }) else {
            return answerMade(.failure(TableServerError.tableNotFound(id)), retry, answer: answer)
        }
        guard let leaders, let log else {
            let made = Result { try commitAtOnce(handle, log: committingLog, key: key, stage) }
            return answerMade(made, retry, handle: handle, answer: answer)
        }
        let made: @Sendable (Result<EditResult, any Error>) -> Void = { [self] result in
            answerMade(result, retry, handle: handle, answer: answer)
        }
        do {
            try queueInGroup(handle, id: id, log: log, key: key, leaders: leaders, stage, answer: made)
        } catch {
            made(.failure(error))
        }
    }

    /// What an edit needs to be made again, on the table the log holds, when
    /// it found none here.
    private struct Retry: Sendable {
        let id: String
        let key: IdempotentRequest?
        let stage: @Sendable (Table) throws -> StagedEdit
        let askedLog: Bool
    }

    /// Answers an edit of `handle` (nil: the table is not here) with `result`:
    /// a deletion leaves the directory; a missing table is asked of the log
    /// once (on the store's look-up thread), and the edit made again on the
    /// table it holds, or answered 404.
    private func answerMade(
        _ result: Result<EditResult, any Error>, _ retry: Retry, handle: TableHandle? = nil,
        answer: @escaping @Sendable (Result<EditResult, any Error>) -> Void
    ) {
        switch result {
        case .failure(let error as TableServerError) where error.isMissingTable:
            guard !retry.askedLog, let log else { return answer(result) }
            versionWaiters.lookUp { [self] in
                do {
                    guard try Self.storageErrors({ try log.lookUp(retry.id) }) else { return answer(result) }
                } catch {
                    return answer(.failure(error))
                }
                edit(retry.id, key: retry.key, retry.stage, askedLog: true, answer: answer)
            }
        case .success(let made):
            if made.deleted, let handle { removeFromDirectory(handle, id: retry.id) }
            answer(result)
        case .failure:
            answer(result)
        }
    }

    /// The log edits are committed through: the store's, or `UnloggedTable`,
    /// which commits at once.
    var committingLog: any TableLog { log ?? UnloggedTable() }

    /// Runs `body`, which records through the log: the store's own errors
    /// (refusals, a table gone) pass; any other is 503 `storage-unavailable`.
    static func storageErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TableServerError {
            throw error
        } catch let repeated as IdempotentRepeat {
            throw repeated
        } catch {
            throw TableServerError.storage(error)
        }
    }

    /// Applies and publishes changes a log holds, in order (from another replica,
    /// or replayed at start-up). Each must be the table's next version.
    func applyLogged(_ changes: [LoggedChange], in state: inout TableHandle.State) throws {
        for logged in changes {
            let change = try logged.decoded()
            guard change.version == state.table.version + 1 else {
                throw TableServerError.storageInconsistent(
                    "version \(change.version) of \"\(state.table.id)\" follows version \(state.table.version)")
            }
            do throws(BatchError) {
                let applied = try state.table.apply(change.batch)
                var published = events.change(version: state.table.version, batch: applied, table: state.table)
                published.actor = change.actor
                publish([published], by: [applied], in: &state)
                if let key = change.key { state.rememberLogged(key, last: published) }
            } catch {
                throw TableServerError.storageInconsistent(
                    "version \(change.version) of \"\(state.table.id)\" does not apply: \(error.detail)")
            }
        }
    }

    /// Adds changes already in `state.table` to the change log and queues them
    /// for every subscriber (see `TableHandle`); `batches` are the changes'
    /// batches as applied, for the open views to follow.
    func publish(_ changes: some Collection<Change>, by batches: [Batch], in state: inout TableHandle.State) {
        for change in changes {
            state.log.append(change)
        }
        state.deliver(changes.map(\.event))
        state.deliverToViews(events, batches: batches)
        versionWaiters.moved(state.table.id, to: state.table.version)
    }

    /// `If-Match` against the table's version: 412 when it names another, 400
    /// when it names no entity tag at all (`If-Match: 7`, where `"7"` was meant).
    static func checkPrecondition(_ ifMatch: String?, version: Int) throws {
        guard let ifMatch else { return }
        if let malformed = EntityTagList.firstMalformed(in: ifMatch) {
            throw TableServerError.malformedEntityTag(String(malformed))
        }
        if EntityTagList(ifMatch).matchesStrongly(ETag.string(for: version)) { return }
        throw TableServerError.versionMismatch(expected: ifMatch, current: version)
    }

    // MARK: Feed

    /// The changes after `version`, up to `last` when the table has passed it;
    /// nil when they are no longer kept (410).
    func changes(_ id: String, since version: Int, until last: Int = .max) throws -> (current: Int, changes: [Change]?)
    {
        try handle(id).withState { state in
            (state.table.version, state.log.changes(after: version, through: last, current: state.table.version))
        }
    }

    /// Opens an event stream on a table: first the changes after `since` (or a
    /// `reset` when they are gone), then every change as it is made.
    func subscribe(_ id: String, since: Int?, stream: EventStream, view: TableQuery? = nil) throws {
        let handle = try handle(id)
        let streamID = ObjectIdentifier(stream)
        // Held strongly: a stream ends when its client goes, its table is
        // deleted or the server stops (which waits for the close actions), and
        // its close actions are let go then, with this reference.
        stream.onClose { handle.removeSubscriber(streamID) }
        try handle.withState { state in
            if let view {
                // Opened on the views' keeper's queue, off this lock; refused here when too many are open.
                try state.views.subscribe(stream, to: view, of: state.table, since: since, life: life)
                return
            }
            let current = state.table.version
            if let since {
                // A replay is sent only when the stream takes all of it: each event
                // is taken while what waits before it (all of the replay, behind
                // the opening comment) is within the stream's limit, so the last
                // may be of any size. Otherwise the client would be dropped,
                // reconnect with the same Last-Event-ID and be dropped again: it
                // reloads instead.
                if let missed = state.log.changes(after: since, current: current),
                    missed.dropLast().reduce(0, { $0 + $1.event.count }) <= stream.bufferLimit
                {
                    for change in missed { stream.send(change.event) }
                } else {
                    stream.send(FeedEvent.reset(version: current))
                }
            }
            state.subscribers.append(stream)
        }
    }

    /// Ends every event stream (at shutdown, before the HTTP server stops).
    func closeAllStreams() {
        let handles = directory.withLock { Array($0.handles.values) }
        for handle in handles {
            handle.closeStreams()
        }
    }
}

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// The text without the spaces and tabs around it (header-field whitespace),
    /// found on its UTF-8 bytes: no `Character` is formed.
    func trimmingSpaces() -> String {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = utf8.firstIndex(where: { !isBlank($0) }),
            let last = utf8.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(self[first...last])
    }
}
