import Foundation
import TableJournal
import TableModel
import Testing
@testable import webtableview

/// `webtableview audit TABLE --journal DIR`: one line a change — version,
/// time, actor, what it did — read from a journal a server wrote.
@Suite struct AuditCommandTests {
    @Test func printsATablesTrailFromItsJournal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("audit-cli-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var table = Table(id: "t", sections: [Section(id: "s", rows: [Row(id: "r", text: "R")])])
        let insert = try table.apply(Batch(insertRows: [Batch.RowItem(at: TableIndexPath(0, 1), row: Row(id: "n"))]))
        let delete = try table.apply(Batch(deleteRows: [TableIndexPath(0, 0)]))
        do {
            let (journal, _) = try Journal.open(JournalOptions(directory: directory))
            try journal.append(.create(Table(id: "t", sections: [Section(id: "s", rows: [Row(id: "r", text: "R")])])))
            try journal.append(.create(Table(id: "other")))
            try journal.append(
                JournalEntry(
                    .changes(
                        tableID: "t",
                        [
                            JournalChange(version: 1, batch: insert, actor: "ana"),
                            JournalChange(
                                version: 2, batch: delete, key: ChangeKey(key: "k", digest: "d", madeAt: 0),
                                actor: "edit-token"),
                        ])))
            journal.close()
        }
        let lines = try Audit.parse(["t", "--journal", directory]).trail()
        #expect(
            lines == [
                "0\t-\t-\tcreated",
                "1\t-\tana\tinserted 1 row",
                "2\t1970-01-01T00:00:00Z\tedit-token\tdeleted 1 row",
            ])
        #expect(try Audit.parse(["missing", "--journal", directory]).trail().isEmpty)
        #expect(throws: (any Error).self) { try Audit.parse(["t"]) }
    }
}
