import MicroHTTP
import Synchronization
import TableModel
import TableRendering

/// Every table the server holds, by id, in the order they were created.
///
/// The directory of tables has its own `Mutex`; each table's content sits behind
/// its `TableHandle`'s. A request takes the directory lock only to find its table.
final class TableStore: Sendable {
    private struct Directory: Sendable {
        var handles: [String: TableHandle] = [:]
        var order: [String] = []
    }

    private let directory = Mutex(Directory())
    let history: Int
    let events: ChangeEvents

    init(history: Int, renderer: TableRenderer) {
        self.history = history
        self.events = ChangeEvents(renderer: renderer)
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
        let handle = TableHandle(table: table, history: history)
        let added = directory.withLock { directory -> Bool in
            guard directory.handles[table.id] == nil else { return false }
            directory.handles[table.id] = handle
            directory.order.append(table.id)
            return true
        }
        guard added else { throw TableServerError.tableExists(table.id) }
        return table
    }

    func delete(_ id: String, ifMatch: String?) throws {
        let handle = try handle(id)
        try handle.withState { state in
            try Self.checkPrecondition(ifMatch, version: state.table.version)
        }
        let removed = directory.withLock { directory -> Bool in
            guard directory.handles[id] === handle else { return false }
            directory.handles[id] = nil
            directory.order.removeAll { $0 == id }
            return true
        }
        guard removed else { throw TableServerError.tableNotFound(id) }
        handle.markDeleted()
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
            if !applied.isEmpty { publish(applied, in: &state) }
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
            var changes: [Change] = []
            for step in steps {
                state.table = step.table
                changes.append(publish(step.batch, in: &state))
            }
            return (state.table.version, changes)
        }
    }

    /// Records an applied batch (already in `state.table`) and sends it to every subscriber.
    @discardableResult
    private func publish(_ batch: Batch, in state: inout TableHandle.State) -> Change {
        let change = events.change(version: state.table.version, batch: batch, table: state.table)
        state.log.append(change)
        state.subscribers.removeAll { !$0.send(change.event) }
        return change
    }

    static func checkPrecondition(_ ifMatch: String?, version: Int) throws {
        guard let ifMatch else { return }
        let tags = ifMatch.split(separator: ",").map { $0.trimmingSpaces() }
        if tags.contains("*") || tags.contains(ETag.string(for: version)) { return }
        throw TableServerError.versionMismatch(expected: ifMatch, current: version)
    }

    // MARK: Feed

    /// The changes after `version`; nil when they are no longer kept (410).
    func changes(_ id: String, since version: Int) throws -> (current: Int, changes: [Change]?) {
        try handle(id).withState { state in
            (state.table.version, state.log.changes(after: version, current: state.table.version))
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
            let streams = (try? handle.withState { state -> [EventStream] in
                defer { state.subscribers.removeAll() }
                return state.subscribers
            }) ?? []
            streams.forEach { $0.close() }
        }
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
