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
/// With a `journal`, every change (create, batch, PATCH, snapshot PUT, delete) is
/// appended to it inside the table's lock, after the change validated and before
/// it is published or answered; see `TableStore+Journal.swift`.
final class TableStore: Sendable {
    struct Directory: Sendable {
        var handles: [String: TableHandle] = [:]
        var order: [String] = []
    }

    let directory = Mutex(Directory())
    let history: Int
    let events: ChangeEvents
    let journal: Journal?

    init(history: Int, renderer: TableRenderer, journal: Journal? = nil) {
        self.history = history
        self.events = ChangeEvents(renderer: renderer)
        self.journal = journal
    }

    // MARK: Tables

    /// Every table, as it is now, in creation order.
    func tables() -> [Table] {
        let handles = directory.withLock { directory in directory.order.compactMap { directory.handles[$0] } }
        return handles.map(\.table)
    }

    func handle(_ id: String) throws -> TableHandle {
        guard let handle = directory.withLock({ $0.handles[id] }) else { throw TableServerError.tableNotFound(id) }
        return handle
    }

    func table(_ id: String) throws -> Table {
        try handle(id).table
    }

    /// Adds a table at version 0; refused when the id is in use.
    @discardableResult
    func create(_ table: Table) throws -> Table {
        var table = table
        table.version = 0
        try insert(table) { try journal?.append(.create(table)) ?? 0 }
        return table
    }

    /// Adds `table` as it is, version included, with the journal sequence number
    /// `record()` answers. The table is in the directory, but locked, while it is
    /// recorded, so no change to it can be recorded before its creation; when the
    /// record fails, the table is taken out again and marked deleted.
    func insert(_ table: Table, record: () throws -> UInt64) throws {
        let handle = TableHandle(table: table, history: history)
        try handle.withState { state in
            let added = directory.withLock { directory -> Bool in
                guard directory.handles[table.id] == nil else { return false }
                directory.handles[table.id] = handle
                directory.order.append(table.id)
                return true
            }
            guard added else { throw TableServerError.tableExists(table.id) }
            do {
                state.journalSequence = try record()
            } catch {
                state.isDeleted = true
                removeFromDirectory(handle, id: table.id)
                throw TableServerError.journal(error)
            }
        }
    }

    /// Deletes a table: recorded, and marked deleted so no later edit reaches it,
    /// under its lock; then taken out of the directory and its streams ended.
    func delete(_ id: String, ifMatch: String?) throws {
        let handle = try handle(id)
        try handle.withState { state in
            try Self.checkPrecondition(ifMatch, version: state.table.version)
            do {
                try journal?.append(.delete(tableID: id))
            } catch {
                throw TableServerError.journal(error)
            }
            TableHandle.markDeleted(&state)
        }
        removeFromDirectory(handle, id: id)
    }

    func removeFromDirectory(_ handle: TableHandle, id: String) {
        directory.withLock { directory in
            guard directory.handles[id] === handle else { return }
            directory.handles[id] = nil
            directory.order.removeAll { $0 == id }
        }
    }

    // MARK: Edits

    /// Applies one batch as one version step and publishes it; a no-op batch
    /// answers the current version and changes nothing.
    func apply(
        _ id: String,
        ifMatch: String?,
        _ makeBatch: (Table) throws -> Batch
    ) throws -> (table: Table, batch: Batch) {
        try handle(id).withState { state in
            try Self.checkPrecondition(ifMatch, version: state.table.version)
            let batch = try makeBatch(state.table)
            let applied: Batch
            do throws(BatchError) {
                applied = try state.table.apply(batch)
            } catch {
                throw TableServerError.refused(error)
            }
            if !applied.isEmpty {
                let change = events.change(version: state.table.version, batch: applied, table: state.table)
                recordApplied(change, in: &state)
                publish([change], in: &state)
            }
            return (state.table, applied)
        }
    }

    /// Replaces a table's content with `snapshot`, as consecutive UIKit-valid batches.
    func replace(_ id: String, with snapshot: Table, ifMatch: String?) throws -> (version: Int, changes: [Change]) {
        try handle(id).withState { state in
            try Self.checkPrecondition(ifMatch, version: state.table.version)
            // Apply every step to a copy first, so that a refusal leaves the table as it was;
            // keep each step's table to render that step's event from.
            var working = state.table
            var steps: [(batch: Batch, table: Table)] = []
            for batch in SnapshotDiff.batches(from: working, to: snapshot) {
                do throws(BatchError) {
                    let applied = try working.apply(batch)
                    steps.append((applied, working))
                } catch {
                    throw TableServerError.refused(error)
                }
            }
            let changes = steps.map { events.change(version: $0.table.version, batch: $0.batch, table: $0.table) }
            if !changes.isEmpty {
                // One record for every step: a crash keeps all of them or none.
                try record(changes, in: &state)
                state.table = steps[steps.count - 1].table
                publish(changes, in: &state)
            }
            return (state.table.version, changes)
        }
    }

    /// Adds changes already in `state.table` to the change log and queues them
    /// for every subscriber (see `TableHandle`).
    func publish(_ changes: [Change], in state: inout TableHandle.State) {
        for change in changes {
            state.log.append(change)
        }
        state.deliver(changes.map(\.event))
    }

    static func checkPrecondition(_ ifMatch: String?, version: Int) throws {
        guard let ifMatch else { return }
        let tags = ifMatch.split(separator: ",").map { $0.trimmingSpaces() }
        if tags.contains("*") || tags.contains(ETag.string(for: version)) { return }
        throw TableServerError.versionMismatch(expected: ifMatch, current: version)
    }

    // MARK: Feed

    /// The changes after `version`, up to `last` when the table has passed it;
    /// nil when they are no longer kept (410).
    func changes(_ id: String, since version: Int, until last: Int = .max) throws -> (current: Int, changes: [Change]?) {
        try handle(id).withState { state in
            (state.table.version, state.log.changes(after: version, through: last, current: state.table.version))
        }
    }

    /// Opens an event stream on a table: first the changes after `since` (or a
    /// `reset` when they are gone), then every change as it is made.
    func subscribe(_ id: String, since: Int?, stream: EventStream) throws {
        let handle = try handle(id)
        let streamID = ObjectIdentifier(stream)
        stream.onClose { [weak handle] in handle?.removeSubscriber(streamID) }
        try handle.withState { state in
            let current = state.table.version
            if let since {
                if let missed = state.log.changes(after: since, current: current) {
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

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
