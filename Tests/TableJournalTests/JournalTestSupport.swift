import Foundation
import Synchronization
import TableJournal
import TableModel
import Testing
import SeededRandom

/// `Journal.open`, waiting out a lock that a child process holds for a moment.
///
/// A journal's lock is an `flock` on its open file, which a child process shares
/// from its spawn until its `exec` closes it: when another test of this process
/// spawns one just as a test closes a journal and opens it again, the lock is
/// briefly still held (seen under the sanitizers, where an `exec` is slow). So
/// `.inUse` is tried again for up to 10 s; any other error is thrown at once.
func openJournal(
    _ options: JournalOptions
) throws(JournalError) -> (journal: Journal, recovery: JournalRecovery) {
    let deadline = Date().addingTimeInterval(10)
    while true {
        do throws(JournalError) {
            return try Journal.open(options)
        } catch  where error.kind == .inUse && Date() < deadline {
            usleep(10_000)
        }
    }
}

/// Runs `body` with a fresh empty folder, removed afterwards.
func withJournalDirectory(_ body: (String) throws -> Void) throws {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("journal-test-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try body(path)
}

/// Journal options for tests: flushes kept (they are cheap on a temporary folder).
func journalOptions(_ directory: String, snapshotEvery: Int = 1_000_000) -> JournalOptions {
    var options = JournalOptions(directory: directory)
    options.snapshotEveryRecords = snapshotEvery
    return options
}

/// The names of the files in `directory` that start with `prefix`, sorted.
func files(in directory: String, prefix: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(prefix) }.sorted()
}

/// The path of the last segment in `directory`.
func lastSegment(in directory: String) throws -> String {
    directory + "/" + (try #require(try files(in: directory, prefix: "segment-").last))
}

/// Rewrites `path` with `edit` applied to its bytes.
func editFile(_ path: String, _ edit: (inout [UInt8]) -> Void) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    edit(&bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// Replays a recovery into plain tables.
func replayed(_ recovery: JournalRecovery) throws -> [Table] {
    var tables = RecoveredTables()
    try recovery.replay(into: &tables)
    return tables.tables
}

/// A table of one section of `rows` rows with ids.
func journalTable(_ id: String, rows: Int = 3) -> Table {
    Table(
        id: id, title: id,
        sections: [Section(id: "s", rows: (0..<rows).map { Row(id: "\(id)r\($0)", text: "row \($0)") })])
}

/// The store's contract with the journal, in miniature: every table behind one
/// lock (the server has one per table), each change applied and then appended
/// inside that lock, and the tables copied for snapshots.
final class MiniStore: Sendable {
    struct Entry: Sendable {
        var table: Table
        var sequence: UInt64
    }

    let journal: Journal
    private let state = Mutex<(order: [String], entries: [String: Entry])>(([], [:]))

    /// Opens the journal in `directory`, replays it, and starts snapshots.
    init(_ options: JournalOptions) throws {
        let (journal, recovery) = try openJournal(options)
        self.journal = journal
        var tables = RecoveredTables()
        try recovery.replay(into: &tables)
        state.withLock { state in
            for table in tables.tables {
                state.order.append(table.id)
                state.entries[table.id] = Entry(table: table, sequence: 0)
            }
        }
        journal.start { self.snapshotTables() }
    }

    var tables: [Table] {
        state.withLock { state in state.order.compactMap { state.entries[$0]?.table } }
    }

    func snapshotTables() -> [SnapshotTable] {
        state.withLock { state in
            state.order.compactMap { id in
                state.entries[id].map { SnapshotTable(table: $0.table, sequence: $0.sequence) }
            }
        }
    }

    func create(_ table: Table) throws {
        try state.withLock { state in
            guard state.entries[table.id] == nil else { return }
            let sequence = try journal.append(.create(table))
            state.order.append(table.id)
            state.entries[table.id] = Entry(table: table, sequence: sequence)
        }
    }

    /// Applies `batch` to table `id` when it exists and accepts it.
    func apply(_ batch: Batch, to id: String) throws {
        try state.withLock { state in
            guard var entry = state.entries[id] else { return }
            guard let applied = try? entry.table.apply(batch), !applied.isEmpty else { return }
            let change = JournalChange(version: entry.table.version, batch: applied)
            entry.sequence = try journal.append(JournalEntry(.changes(tableID: id, [change])))
            state.entries[id] = entry
        }
    }

    func delete(_ id: String) throws {
        try state.withLock { state in
            guard state.entries[id] != nil else { return }
            try journal.append(.delete(tableID: id))
            state.entries[id] = nil
            state.order.removeAll { $0 == id }
        }
    }
}

/// A random edit of a table of one section: insert, delete, reload or move a row, or a PATCH.
func randomBatch(for table: Table, using generator: inout some RandomNumberGenerator) -> Batch {
    let count = table.sections.first?.rows.count ?? 0
    let tag = Int.random(in: 0..<1_000_000, using: &generator)
    switch Int.random(in: 0..<5, using: &generator) {
    case 0 where count > 0:
        return Batch(deleteRows: [TableIndexPath(0, Int.random(in: 0..<count, using: &generator))])
    case 1 where count > 0:
        let at = TableIndexPath(0, Int.random(in: 0..<count, using: &generator))
        return Batch(reloadRows: [.init(at: at, row: Row(text: "reloaded \(tag)", selected: true))])
    case 2 where count > 1:
        return Batch(moveRows: [
            .init(
                from: TableIndexPath(0, Int.random(in: 0..<count, using: &generator)),
                to: TableIndexPath(0, Int.random(in: 0..<count, using: &generator)))
        ])
    case 3:
        return Batch(properties: TableProperties(title: .some("title \(tag)"), header: .some(tag % 2 == 0 ? nil : "h")))
    default:
        let at = TableIndexPath(0, Int.random(in: 0...count, using: &generator))
        return Batch(insertRows: [.init(at: at, row: Row(text: "inserted \(tag)", detail: "é ✓ \"quoted\""))])
    }
}
