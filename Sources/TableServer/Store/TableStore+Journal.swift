import Glibc
import TableJournal
import TableModel

/// The store's side of the journal: rebuilding the tables at start-up and
/// copying them for snapshots. (Recording goes through `TableLog`.)
extension TableStore {
    /// Rebuilds the tables from what the journal recovered, without recording
    /// anything. Replayed changes fill each table's change log, so `/changes` and
    /// `Last-Event-ID` reach back to the journal's latest snapshot.
    func recover(_ recovery: JournalRecovery) throws(JournalError) {
        var target = ReplayTarget(store: self)
        try recovery.replay(into: &target)
    }

    /// Every table with the sequence number of its last journal record, each
    /// copied (O(1)) under its own lock, in creation order.
    ///
    /// A group of edits is appended before it is made (`GroupCommit`): a table
    /// whose group is being committed is copied once that group is made, so
    /// that the copy holds every record of the segments the snapshot removes
    /// (the journal moved to a new segment before it asked for the tables).
    func snapshotTables() -> [SnapshotTable] {
        let handles = directory.withLock { directory in directory.order.compactMap { directory.handles[$0] } }
        return handles.compactMap(Self.settledCopy)
    }

    private enum Look {
        case copy(SnapshotTable)
        /// A group is being committed; the count of groups finished so far.
        case wait(finished: Int)
    }

    /// The table, its log mark and keys, copied once the group being committed
    /// when it is first looked at (if any) is finished; nil once deleted.
    private static func settledCopy(_ handle: TableHandle) -> SnapshotTable? {
        var waitingFor: Int?
        while true {
            let look = try? handle.withState { state -> Look in
                let group = state.group
                if group.isCommitting, waitingFor == nil || waitingFor == group.finished {
                    return .wait(finished: group.finished)
                }
                return .copy(
                    SnapshotTable(table: state.table, sequence: state.logMark, keys: state.keys.snapshotKeys()))
            }
            switch look {
            case .copy(let table): return table
            case .wait(let finished):
                waitingFor = finished
                usleep(200)
            case nil: return nil
            }
        }
    }

    private struct ReplayTarget: JournalReplayTarget {
        let store: TableStore

        func restore(_ table: Table, sequence: UInt64) throws(JournalError) {
            do {
                try store.insert(table) { sequence }
            } catch {
                throw JournalError(.inconsistent, "table \"\(table.id)\" appears twice")
            }
        }

        func apply(_ changes: [JournalChange], toTable id: String, sequence: UInt64) throws(JournalError) {
            do {
                try store.handle(id).withState { state in
                    for change in changes {
                        let applied = try state.table.apply(change.batch)
                        var published = store.events.change(
                            version: state.table.version, batch: applied, table: state.table)
                        published.actor = change.actor
                        store.publish([published], by: [applied], in: &state)
                        if let key = change.key { state.rememberLogged(key, last: published) }
                    }
                    state.logMark = sequence
                }
            } catch {
                throw JournalError(.inconsistent, "a change to \"\(id)\" does not replay: \(error)")
            }
        }

        func restoreKeys(_ keys: [SnapshotKey], ofTable id: String) throws(JournalError) {
            do {
                try store.handle(id).withState { $0.rememberSnapshotKeys(keys) }
            } catch {
                throw JournalError(.inconsistent, "the keys of \"\(id)\" have no table")
            }
        }

        func restoreDirectoryKey(_ key: ChangeKey) {
            store.rememberDirectoryKey(key)
        }

        func remove(tableID id: String) {
            guard let handle = try? store.handle(id) else { return }
            try? handle.withState { TableHandle.markDeleted(&$0) }
            store.removeFromDirectory(handle, id: id)
        }
    }
}
