import SeededRandom
import Dispatch
import Foundation
import TableModel
import Testing
@testable import TableJournal

/// Snapshots trim the journal, and what they hold plus the records after them
/// rebuilds every table at its version.
@Suite struct JournalSnapshotTests {
    @Test func aSnapshotTrimsAndVersionsContinueAfterARestart() throws {
        try withJournalDirectory { directory in
            var generator = SeededGenerator(seed: 1)
            var expected: [Table] = []
            do {
                let store = try MiniStore(journalOptions(directory))
                for id in ["a", "b", "c"] { try store.create(journalTable(id)) }
                for _ in 0..<60 {
                    let id = ["a", "b", "c"].randomElement(using: &generator)!
                    try store.apply(randomBatch(for: store.tables.first { $0.id == id }!, using: &generator), to: id)
                }
                try store.journal.snapshot()
                #expect(try files(in: directory, prefix: "snapshot-") == ["snapshot-0000000002.wts"])
                #expect(try files(in: directory, prefix: "segment-") == ["segment-0000000002.wtj"])
                try store.delete("b")
                try store.apply(Batch(deleteRows: [TableIndexPath(0, 0)]), to: "a")
                expected = store.tables
                store.journal.close()
            }
            let store = try MiniStore(journalOptions(directory))
            #expect(store.tables == expected)
            let version = try #require(store.tables.first?.version)
            try store.apply(Batch(properties: TableProperties(title: .some("after restart"))), to: "a")
            #expect(store.tables.first?.version == version + 1)
            expected = store.tables
            store.journal.close()

            let (journal, recovery) = try openJournal(journalOptions(directory))
            defer { journal.close() }
            #expect(recovery.hasSnapshot)
            #expect(recovery.records.count == 3)
            #expect(try replayed(recovery) == expected)
        }
    }

    /// Tables are copied one by one after the journal moved to the new segment:
    /// records of that segment already in a copy are skipped, and those of a table
    /// deleted before it was copied are too.
    @Test func recordsWrittenWhileASnapshotIsTakenReplayOnce() throws {
        try withJournalDirectory { directory in
            let (journal, _) = try openJournal(journalOptions(directory))
            var a = journalTable("a")
            let aCreated = try journal.append(.create(a))
            try journal.append(.create(journalTable("b")))
            let aBatch = try a.apply(Batch(deleteRows: [TableIndexPath(0, 0)]))
            var b = journalTable("b")
            let bBatch = try b.apply(Batch(deleteRows: [TableIndexPath(0, 0)]))
            let aCopy = a
            journal.start {
                // Meanwhile, in other requests: "a" changes before it is copied, "b"
                // changes and is deleted, "c" is created and changes after the copy.
                let aChanged = try! journal.append(
                    JournalEntry(.changes(tableID: "a", [JournalChange(version: 1, batch: aBatch)])))
                try! journal.append(JournalEntry(.changes(tableID: "b", [JournalChange(version: 1, batch: bBatch)])))
                try! journal.append(.delete(tableID: "b"))
                #expect(aChanged > aCreated)
                return [SnapshotTable(table: aCopy, sequence: aChanged)]
            }
            try journal.snapshot()
            var c = journalTable("c")
            try journal.append(.create(c))
            let cBatch = try c.apply(Batch(insertRows: [.init(at: TableIndexPath(0, 0), row: Row(text: "c"))]))
            try journal.append(JournalEntry(.changes(tableID: "c", [JournalChange(version: 1, batch: cBatch)])))
            journal.close()

            let (reopened, recovery) = try openJournal(journalOptions(directory))
            defer { reopened.close() }
            #expect(recovery.records.count == 5)
            #expect(try replayed(recovery) == [a, c])
        }
    }

    /// Four writers on their own tables, creating, editing and deleting, while
    /// snapshots run in the background every 25 records.
    @Test func backgroundSnapshotsUnderConcurrentWriters() throws {
        try withJournalDirectory { directory in
            let options = journalOptions(directory, snapshotEvery: 25)
            let store = try MiniStore(options)
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                var generator = SeededGenerator(seed: UInt64(worker) + 10)
                for step in 0..<150 {
                    let id = "w\(worker)-\(step / 50)"
                    if step % 50 == 0 { try! store.create(journalTable(id)) }
                    if let table = store.tables.first(where: { $0.id == id }) {
                        try! store.apply(randomBatch(for: table, using: &generator), to: id)
                    }
                    if step % 50 == 49, worker % 2 == 0 { try! store.delete(id) }
                }
            }
            let expected = store.tables
            store.journal.close()
            #expect(try files(in: directory, prefix: "snapshot-").count == 1)

            let (journal, recovery) = try openJournal(options)
            defer { journal.close() }
            #expect(recovery.hasSnapshot)
            #expect(recovery.records.count < 150 * 4)
            let tables = try replayed(recovery)
            #expect(tables.map(\.id).sorted() == expected.map(\.id).sorted())
            for table in tables { #expect(table == expected.first { $0.id == table.id }) }
        }
    }

    @Test(arguments: [FsyncPolicy.interval, .never])
    func otherFlushPoliciesKeepEveryRecordOfACleanStop(policy: FsyncPolicy) throws {
        try withJournalDirectory { directory in
            var options = journalOptions(directory)
            options.fsync = policy
            options.flushInterval = .milliseconds(5)
            let store = try MiniStore(options)
            try store.create(journalTable("t"))
            var generator = SeededGenerator(seed: 3)
            for _ in 0..<30 { try store.apply(randomBatch(for: store.tables[0], using: &generator), to: "t") }
            let expected = store.tables
            store.journal.close()
            let (journal, recovery) = try openJournal(options)
            defer { journal.close() }
            #expect(try replayed(recovery) == expected)
        }
    }

    @Test func aSnapshotOfNoTableIsNotAnEmptyJournal() throws {
        try withJournalDirectory { directory in
            do {
                let store = try MiniStore(journalOptions(directory))
                try store.create(journalTable("t"))
                try store.delete("t")
                try store.journal.snapshot()
                store.journal.close()
            }
            let (journal, recovery) = try openJournal(journalOptions(directory))
            defer { journal.close() }
            #expect(recovery.hasSnapshot)
            #expect(recovery.records.isEmpty)
            #expect(!recovery.isEmpty)
        }
    }
}
