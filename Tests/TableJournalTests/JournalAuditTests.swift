import Foundation
import TableJournal
import TableModel
import Testing

/// Who made each change (docs/ACCESS.md, "Audit"), as the journal keeps it,
/// and a journal's audit trail read without changing the journal.
@Suite struct JournalAuditTests {
    @Test func actorsAreKeptAndARecordWithoutThemStillLoads() throws {
        try withJournalDirectory { directory in
            var table = journalTable("t")
            let first = try table.apply(Batch(deleteRows: [TableIndexPath(0, 0)]))
            let second = try table.apply(Batch(deleteRows: [TableIndexPath(0, 0)]))
            let third = try table.apply(Batch(deleteRows: [TableIndexPath(0, 0)]))
            let key = ChangeKey(key: "k", digest: "d", madeAt: 1_800_000_000)
            do {
                let (journal, _) = try openJournal(journalOptions(directory))
                try journal.append(.create(journalTable("t")))
                // As a server before audit wrote it: no actor member.
                try journal.append(.changes(tableID: "t", changeJSON: [first.changeJSONBytes(version: 1)]))
                try journal.append(
                    JournalEntry(
                        .changes(
                            tableID: "t",
                            [
                                JournalChange(version: 2, batch: second, actor: "ana"),
                                JournalChange(version: 3, batch: third, key: key, actor: "bob \"the\" builder"),
                            ])))
                try journal.append(.delete(tableID: "t"))
                journal.close()
            }
            let (journal, recovery) = try openJournal(journalOptions(directory))
            journal.close()
            let changes = recovery.records.flatMap { entry -> [JournalChange] in
                if case .changes(_, let changes) = entry.record { changes } else { [] }
            }
            #expect(changes.map(\.actor) == [nil, "ana", "bob \"the\" builder"])
            #expect(changes.map(\.key) == [nil, nil, key])
            #expect(
                recovery.auditTrail(of: "t") == [
                    AuditEntry(version: 0, what: "created"),
                    AuditEntry(version: 1, what: "deleted 1 row"),
                    AuditEntry(version: 2, actor: "ana", what: "deleted 1 row"),
                    AuditEntry(version: 3, madeAt: 1_800_000_000, actor: "bob \"the\" builder", what: "deleted 1 row"),
                    AuditEntry(version: 3, what: "deleted"),
                ])
            #expect(recovery.auditTrail(of: "other").isEmpty)
        }
    }

    @Test func anActorThatIsNotAStringIsRefused() throws {
        let change = #"{"version":1,"batch":{},"actor":7}"#
        #expect(throws: ValidationError.self) {
            try RecordedDecoding.change(from: RecordedDecoding.parser.parse(Array(change.utf8)[...]))
        }
        let named = #"{"version":1,"batch":{},"actor":"ana"}"#
        let read = try RecordedDecoding.change(from: RecordedDecoding.parser.parse(Array(named.utf8)[...]))
        #expect(read.actor == "ana" && read.key == nil)
    }

    @Test func readingAJournalChangesNoFile() throws {
        try withJournalDirectory { directory in
            do {
                let (journal, _) = try openJournal(journalOptions(directory))
                try journal.append(.create(journalTable("t")))
                try journal.append(.create(journalTable("u")))
                journal.close()
            }
            let segment = try lastSegment(in: directory)
            try editFile(segment) { $0.removeLast(3) }
            let before = try Data(contentsOf: URL(fileURLWithPath: segment))
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            let read = try Journal.read(directory: directory)
            // The torn record is left out, and left where it is.
            #expect(read.auditTrail(of: "t") == [AuditEntry(version: 0, what: "created")])
            #expect(read.auditTrail(of: "u").isEmpty)
            #expect(read.warnings.count == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: segment)) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == names)
        }
    }
}
