import TableJournal
import TableModel

/// The store's side of a shared log (the database replicas share): tables
/// loaded from it, changes made through other replicas applied, tables deleted
/// or re-created elsewhere taken out. Each under the table's lock, so a change
/// is applied exactly once, in version order, whoever brings it first (an edit
/// catching up inside its group commit, or the follower).
extension TableStore {
    /// A table's log mark and version, as this server holds it.
    struct LogPosition: Equatable {
        var mark: UInt64
        var version: Int
    }

    /// Every table's log position, by id.
    func logPositions() -> [String: LogPosition] {
        let handles = directory.withLock { $0.handles }
        var positions: [String: LogPosition] = [:]
        for (id, handle) in handles {
            if let position = try? handle.withState({ LogPosition(mark: $0.logMark, version: $0.table.version) }) {
                positions[id] = position
            }
        }
        return positions
    }

    func logPosition(_ id: String) -> LogPosition? {
        guard let handle = try? handle(id) else { return nil }
        return try? handle.withState { LogPosition(mark: $0.logMark, version: $0.table.version) }
    }

    /// The table with its keys, and its mark, copied under its lock (for a snapshot).
    func loggedTable(_ id: String) -> (table: SnapshotTable, mark: UInt64)? {
        guard let handle = try? handle(id) else { return nil }
        return try? handle.withState {
            (SnapshotTable(table: $0.table, sequence: $0.logMark, keys: $0.keys.snapshotKeys()), $0.logMark)
        }
    }

    /// Adds a table loaded from the log — `table` at a snapshot, then `changes`
    /// replayed into it and its change log. It is in the directory, but locked,
    /// while they are replayed: a read waiting for one of their versions
    /// (`Min-Version`), woken by it, finds the table and waits for its lock,
    /// so it never answers 404 for a table being brought in. When a change
    /// does not apply, the table is taken out again. Throws `tableExists` when
    /// this server holds the id already.
    func restore(_ stored: SnapshotTable, replaying changes: [LoggedChange], mark: UInt64) throws {
        let table = stored.table
        let handle = makeHandle(table)
        try handle.withState { state in
            let added = directory.withLock { directory -> Bool in
                guard directory.handles[table.id] == nil else { return false }
                directory.handles[table.id] = handle
                directory.order.append(table.id)
                return true
            }
            guard added else { throw TableServerError.tableExists(table.id) }
            do {
                state.rememberSnapshotKeys(stored.keys)
                try applyLogged(changes, in: &state)
                state.logMark = mark
            } catch {
                state.isDeleted = true
                removeFromDirectory(handle, id: table.id)
                throw error
            }
            versionWaiters.moved(table.id, to: state.table.version)
        }
    }

    /// Applies the changes after this server's version, of the table with
    /// `mark`; those it holds already are skipped. Answers false when they do
    /// not follow on (the ones between were trimmed: reload the table).
    func follow(_ id: String, mark: UInt64, changes: [LoggedChange]) throws -> Bool {
        guard let handle = try? handle(id) else { return true }
        return try handle.withState { state in
            guard state.logMark == mark else { return true }
            let missing = changes.drop { $0.version <= state.table.version }
            guard let first = missing.first else { return true }
            guard first.version == state.table.version + 1 else { return false }
            try applyLogged(Array(missing), in: &state)
            return true
        }
    }

    /// Replaces a table's content with one loaded from the log (its changes
    /// were trimmed before this server got them): the change log starts again
    /// from what was loaded, and every stream is sent `reset`.
    func reload(_ stored: SnapshotTable, replaying changes: [LoggedChange], mark: UInt64) throws {
        let table = stored.table
        let handle = try handle(table.id)
        try handle.withState { state in
            state.rememberSnapshotKeys(stored.keys)
            guard state.logMark == mark, table.version + changes.count > state.table.version else { return }
            // The streams get `reset` alone, not the changes replayed on the way.
            let subscribers = state.subscribers
            let views = state.views
            state.subscribers = []
            state.views = ViewKeeper(delivery: state.delivery)
            state.table = table
            state.log = ChangeLog(capacity: history, byteLimit: historyBytes)
            try applyLogged(changes, in: &state)
            state.subscribers = subscribers
            state.views = views
            state.deliver([FeedEvent.reset(version: state.table.version)])
            state.views.reset(to: state.table, life: life)
            // A snapshot at the version with nothing replayed published nothing.
            versionWaiters.moved(table.id, to: state.table.version)
        }
    }

    /// Takes out a table deleted through another replica (when this server
    /// still holds it with `mark`): its streams get `deleted` and end. A
    /// table already marked deleted (by another thread that has not yet taken
    /// it out of the directory) is taken out too, so that a create right
    /// after this finds its id free.
    func removeLogged(_ id: String, mark: UInt64) {
        guard let handle = try? handle(id) else { return }
        let removed = handle.withAnyState { state -> Bool in
            guard !state.isDeleted else { return true }
            guard state.logMark == mark else { return false }
            TableHandle.markDeleted(&state)
            return true
        }
        if removed { removeFromDirectory(handle, id: id) }
    }
}
