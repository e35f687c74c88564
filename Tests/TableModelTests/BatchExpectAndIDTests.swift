import Testing
@testable import TableModel

@Suite("Batch rules: expected counts and ids")
struct BatchExpectAndIDTests {
    typealias F = BatchFixture
    private let table = F.table([5, 2, 3])

    @Test("A section that exists before and after: UIKit's message, with the expected count 'after the update'")
    func rowsOfExistingSection() {
        expectRefused(
            Batch(insertRows: [.init(at: TableIndexPath(0, 0), row: F.row("N"))], expect: .init(rows: [5, 2, 3])),
            on: table, .invalidUpdate,
            "Invalid update: invalid number of rows in section 0. The number of rows contained in an existing section after the update (5) must be equal to the number of rows contained in that section before the update (5), plus or minus the number of rows inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."
        )
    }

    @Test("Counted as UIKit counts: a reload is one inserted and one deleted, a move inside the section neither")
    func rowCountsWithMovesAndReloads() {
        let batch = Batch(
            reloadRows: [.init(at: TableIndexPath(1, 1), row: F.row("R"))],
            moveRows: [
                .init(from: TableIndexPath(0, 0), to: TableIndexPath(1, 0)),
                .init(from: TableIndexPath(2, 0), to: TableIndexPath(1, 1)),
                .init(from: TableIndexPath(1, 0), to: TableIndexPath(1, 2)),
            ],
            expect: .init(rows: [4, 3, 2])
        )
        expectRefused(
            batch, on: table, .invalidUpdate,
            "Invalid update: invalid number of rows in section 1. The number of rows contained in an existing section after the update (3) must be equal to the number of rows contained in that section before the update (2), plus or minus the number of rows inserted or deleted from that section (1 inserted, 1 deleted) and plus or minus the number of rows moved into or out of that section (2 moved in, 0 moved out)."
        )
    }

    @Test("A moved section is named by its index after the update")
    func rowsOfMovedSection() {
        expectRefused(
            Batch(
                moveSections: [.init(from: 0, to: 2)],
                insertRows: [.init(at: TableIndexPath(2, 0), row: F.row("N"))],
                expect: .init(rows: [2, 3, 5])
            ),
            on: table, .invalidUpdate,
            "Invalid update: invalid number of rows in section 2. The number of rows contained in an existing section after the update (5) must be equal to the number of rows contained in that section before the update (5), plus or minus the number of rows inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."
        )
    }

    @Test("The number of sections, counting a reload as one inserted and one deleted")
    func sectionCount() {
        expectRefused(
            Batch(
                deleteSections: [0],
                insertSections: [.init(at: 2, section: Section())],
                reloadSections: [.init(at: 1, section: Section())],
                expect: .init(sections: 4)
            ),
            on: table, .invalidUpdate,
            "Invalid update: invalid number of sections. The number of sections contained in the table view after the update (4) must be equal to the number of sections contained in the table view before the update (3), plus or minus the number of sections inserted or deleted (2 inserted, 2 deleted)."
        )
    }

    @Test("A list of row counts that does not cover every section is a wrong number of sections")
    func rowListLength() {
        expectRefused(
            Batch(expect: .init(rows: [5, 2])), on: table, .invalidUpdate,
            "Invalid update: invalid number of sections. The number of sections contained in the table view after the update (2) must be equal to the number of sections contained in the table view before the update (3), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."
        )
    }

    @Test("An inserted or reloaded section: what it holds against what was expected")
    func rowsOfNewSection() {
        expectRefused(
            Batch(insertSections: [.init(at: 2, section: F.section("X", 4))], expect: .init(rows: [5, 2, 5, 3])),
            on: table, .invalidUpdate,
            "Invalid update: invalid number of rows in section 2. The section holds 4 rows after the update, expected 5."
        )
        expectRefused(
            Batch(reloadSections: [.init(at: 1, section: F.section("X", 4))], expect: .init(rows: [5, 5, 3])),
            on: table, .invalidUpdate,
            "Invalid update: invalid number of rows in section 1. The section holds 4 rows after the update, expected 5."
        )
    }

    @Test("Expected counts that hold are accepted")
    func expectHolds() throws {
        let result = try applied(
            Batch(
                deleteSections: [2],
                insertRows: [.init(at: TableIndexPath(1, 2), row: F.row("N"))],
                expect: .init(sections: 2, rows: [5, 3])
            ), to: table)
        #expect(F.texts(result) == [["A0", "A1", "A2", "A3", "A4"], ["B0", "B1", "N"]])
    }

    // MARK: Ids

    private let tableWithIDs = Table(
        id: "t",
        sections: [
            Section(id: "s1", rows: [F.row("a", id: "a"), F.row("b", id: "b")]),
            Section(id: "s2", rows: [F.row("c", id: "c")]),
        ])

    @Test("An inserted row may not take an id in use")
    func insertedRowID() {
        expectRefused(
            Batch(insertRows: [.init(at: TableIndexPath(1, 0), row: F.row("x", id: "a"))]),
            on: tableWithIDs, .duplicateID, "duplicate row id \"a\" after the update"
        )
    }

    @Test("Two new rows may not share an id")
    func twoNewRows() {
        expectRefused(
            Batch(
                insertRows: [.init(at: TableIndexPath(1, 0), row: F.row("x", id: "new"))],
                reloadRows: [.init(at: TableIndexPath(0, 0), row: F.row("y", id: "new"))]
            ),
            on: tableWithIDs, .duplicateID, "duplicate row id \"new\" after the update"
        )
    }

    @Test("A reloaded row may not take another row's id")
    func reloadedRowID() {
        expectRefused(
            Batch(reloadRows: [.init(at: TableIndexPath(0, 0), row: F.row("x", id: "c"))]),
            on: tableWithIDs, .duplicateID, "duplicate row id \"c\" after the update"
        )
    }

    @Test("An inserted section may not take a section id in use, nor bring row ids in use")
    func insertedSectionIDs() {
        expectRefused(
            Batch(insertSections: [.init(at: 0, section: Section(id: "s2"))]),
            on: tableWithIDs, .duplicateID, "duplicate section id \"s2\" after the update"
        )
        expectRefused(
            Batch(insertSections: [.init(at: 0, section: Section(id: "s3", rows: [F.row("x", id: "b")]))]),
            on: tableWithIDs, .duplicateID, "duplicate row id \"b\" after the update"
        )
    }

    @Test("Ids freed by a deleted or reloaded section may be reused in the same batch")
    func freedByReplacedSection() throws {
        let result = try applied(
            Batch(
                deleteSections: [1],
                insertSections: [.init(at: 0, section: Section(id: "s2", rows: [F.row("c", id: "c")]))],
                reloadSections: [.init(at: 0, section: Section(id: "s9", rows: [F.row("b", id: "a")]))]
            ), to: tableWithIDs)
        #expect(result.ids.sectionIDs == ["s2", "s9"])
        #expect(result.ids.rowIDs == ["a", "c"])
    }
}
