import Testing
@testable import TableModel

@Suite("Batch rules: rows")
struct BatchRowRuleTests {
    private static func path(_ section: Int, _ row: Int) -> TableIndexPath { TableIndexPath(section, row) }
    private static func new(_ text: String) -> Row { BatchFixture.row(text) }
    private static func move(_ from: TableIndexPath, _ to: TableIndexPath) -> Batch.RowMove {
        .init(from: from, to: to)
    }

    static let outOfRangeCases: [RefusalCase] = [
        RefusalCase(
            name: "delete a row of a section out of range", counts: [8, 3, 1, 0],
            batch: Batch(deleteRows: [path(4, 0)]), rule: .indexOutOfRange,
            detail: "attempt to delete row 0 from section 4, but there are only 4 sections before the update"
        ),
        RefusalCase(
            name: "delete a row out of range", counts: [8, 3, 1, 0],
            batch: Batch(deleteRows: [path(2, 3)]), rule: .indexOutOfRange,
            detail: "attempt to delete row 3 from section 2 which only contains 1 rows before the update"
        ),
        RefusalCase(
            name: "reload a row out of range (a reload is a delete plus an insert)", counts: [8, 3, 1, 0],
            batch: Batch(reloadRows: [.init(at: path(2, 3), row: new("R"))]), rule: .indexOutOfRange,
            detail: "attempt to delete row 3 from section 2 which only contains 1 rows before the update"
        ),
        RefusalCase(
            name: "reload a row of a section out of range", counts: [8, 3, 1, 0],
            batch: Batch(reloadRows: [.init(at: path(5, 0), row: new("R"))]), rule: .indexOutOfRange,
            detail: "attempt to delete row 0 from section 5, but there are only 4 sections before the update"
        ),
        RefusalCase(
            name: "insert a row into a section out of range", counts: [8, 3],
            batch: Batch(insertRows: [.init(at: path(2, 0), row: new("N"))]), rule: .indexOutOfRange,
            detail: "attempt to insert row 0 into section 2, but there are only 2 sections after the update"
        ),
        RefusalCase(
            name: "insert a row out of range", counts: [8, 3],
            batch: Batch(deleteRows: [path(0, 0)], insertRows: [.init(at: path(0, 8), row: new("N"))]),
            rule: .indexOutOfRange,
            detail: "attempt to insert row 8 into section 0, but there are only 8 rows in section 0 after the update"
        ),
        RefusalCase(
            name: "move a row from a section out of range", counts: [8, 3, 1, 0],
            batch: Batch(moveRows: [move(path(4, 0), path(0, 0))]), rule: .indexOutOfRange,
            detail:
                "attempt to move index path ([4, 0]) from a section that does not exist - there are only 4 sections before the update"
        ),
        RefusalCase(
            name: "move a row that does not exist", counts: [8, 3, 0],
            batch: Batch(moveRows: [move(path(2, 0), path(0, 0))]), rule: .indexOutOfRange,
            detail:
                "attempt to move index path ([2, 0]) that does not exist - there are only 0 rows in section 2 before the update"
        ),
        RefusalCase(
            name: "move a row into a section out of range", counts: [8, 3, 1, 0],
            batch: Batch(moveRows: [move(path(0, 0), path(4, 0))]), rule: .indexOutOfRange,
            detail:
                "attempt to move index path ([0, 0]) to index path ([4, 0]) in section that does not exist - there are only 4 sections after the update"
        ),
        RefusalCase(
            name: "move a row to a row out of range", counts: [8, 3, 1, 0],
            batch: Batch(moveRows: [move(path(0, 0), path(1, 4))]), rule: .indexOutOfRange,
            detail:
                "attempt to move index path ([0, 0]) to index path ([1, 4]) that does not exist - there are only 4 rows in section 1 after the update"
        ),
    ]

    static let conflictCases: [RefusalCase] = [
        RefusalCase(
            name: "delete a row twice", counts: [8],
            batch: Batch(deleteRows: [path(0, 1), path(0, 1)]), rule: .duplicatePosition,
            detail: "attempt to delete index path ([0, 1]) twice in the same update"
        ),
        RefusalCase(
            name: "reload a row twice", counts: [8],
            batch: Batch(reloadRows: [.init(at: path(0, 1), row: new("R")), .init(at: path(0, 1), row: new("S"))]),
            rule: .duplicatePosition, detail: "attempt to reload index path ([0, 1]) twice in the same update"
        ),
        RefusalCase(
            name: "insert two rows at one index path", counts: [8],
            batch: Batch(insertRows: [.init(at: path(0, 1), row: new("N")), .init(at: path(0, 1), row: new("M"))]),
            rule: .duplicatePosition, detail: "attempt to insert index path ([0, 1]) twice in the same update"
        ),
        RefusalCase(
            name: "move one row to two places", counts: [8],
            batch: Batch(moveRows: [move(path(0, 1), path(0, 3)), move(path(0, 1), path(0, 2))]),
            rule: .duplicatePosition, detail: "attempt to move row at index path [0, 1] to both [0, 2] and [0, 3]"
        ),
        RefusalCase(
            name: "move the same row twice", counts: [8],
            batch: Batch(moveRows: [move(path(0, 1), path(0, 2)), move(path(0, 1), path(0, 2))]),
            rule: .duplicatePosition, detail: "attempt to move index path ([0, 1]) twice in the same update"
        ),
        RefusalCase(
            name: "move two rows to one place", counts: [8],
            batch: Batch(moveRows: [move(path(0, 2), path(0, 3)), move(path(0, 1), path(0, 3))]),
            rule: .duplicatePosition, detail: "attempt to move both row at index path [0, 1] and [0, 2] to [0, 3]"
        ),
        RefusalCase(
            name: "delete and reload one row", counts: [8],
            batch: Batch(deleteRows: [path(0, 4)], reloadRows: [.init(at: path(0, 4), row: new("R"))]),
            rule: .deleteAndReload, detail: "attempt to delete and reload the same index path ([0, 4])"
        ),
        RefusalCase(
            name: "delete and move one row", counts: [8],
            batch: Batch(deleteRows: [path(0, 1)], moveRows: [move(path(0, 1), path(0, 5))]),
            rule: .deleteAndMove, detail: "attempt to perform a delete and a move from the same index path ([0, 1])"
        ),
        RefusalCase(
            name: "reload and move one row (a reload is a delete plus an insert)", counts: [8],
            batch: Batch(reloadRows: [.init(at: path(0, 1), row: new("R"))], moveRows: [move(path(0, 1), path(0, 5))]),
            rule: .reloadAndMove, detail: "attempt to perform a delete and a move from the same index path ([0, 1])"
        ),
        RefusalCase(
            name: "insert and move to one index path", counts: [8],
            batch: Batch(insertRows: [.init(at: path(0, 3), row: new("N"))], moveRows: [move(path(0, 1), path(0, 3))]),
            rule: .duplicateTarget, detail: "attempt to perform an insert and a move to the same index path ([0, 3])"
        ),
    ]

    static let replacedSectionCases: [RefusalCase] = [
        RefusalCase(
            name: "delete a row of a deleted section", counts: [2, 2, 2],
            batch: Batch(deleteSections: [2], deleteRows: [path(2, 0)]),
            rule: .rowInReplacedSection, detail: "cannot delete a row from a deleted section (2)"
        ),
        RefusalCase(
            name: "delete a row of a reloaded section", counts: [2, 2, 2],
            batch: Batch(reloadSections: [.init(at: 2, section: Section())], deleteRows: [path(2, 0)]),
            rule: .rowInReplacedSection, detail: "cannot delete a row from a reloaded section (2)"
        ),
        RefusalCase(
            name: "reload a row of a deleted section", counts: [2, 2, 2],
            batch: Batch(deleteSections: [2], reloadRows: [.init(at: path(2, 0), row: new("R"))]),
            rule: .rowInReplacedSection, detail: "cannot reload a row in a deleted section (2)"
        ),
        RefusalCase(
            name: "reload a row of a reloaded section", counts: [2, 2, 2],
            batch: Batch(
                reloadSections: [.init(at: 2, section: Section())], reloadRows: [.init(at: path(2, 0), row: new("R"))]),
            rule: .rowInReplacedSection, detail: "cannot reload a row in a reloaded section (2)"
        ),
        RefusalCase(
            name: "move a row from a deleted section", counts: [2, 2, 2],
            batch: Batch(deleteSections: [2], moveRows: [move(path(2, 0), path(0, 0))]),
            rule: .rowInReplacedSection, detail: "cannot move a row from a deleted section"
        ),
        RefusalCase(
            name: "move a row from a reloaded section", counts: [2, 2, 2],
            batch: Batch(reloadSections: [.init(at: 2, section: Section())], moveRows: [move(path(2, 0), path(0, 0))]),
            rule: .rowInReplacedSection, detail: "cannot move a row from a reloaded section (2)"
        ),
        RefusalCase(
            name: "insert a row into an inserted section", counts: [2, 2, 2],
            batch: Batch(
                insertSections: [.init(at: 2, section: Section())], insertRows: [.init(at: path(2, 0), row: new("N"))]),
            rule: .rowInReplacedSection, detail: "cannot insert a row into a newly inserted section (2)"
        ),
        RefusalCase(
            name: "insert a row into a reloaded section", counts: [2, 2, 2],
            batch: Batch(
                reloadSections: [.init(at: 2, section: Section())], insertRows: [.init(at: path(2, 0), row: new("N"))]),
            rule: .rowInReplacedSection, detail: "cannot insert a row into a reloaded section (2)"
        ),
        RefusalCase(
            name: "move a row into an inserted section", counts: [2, 2, 2],
            batch: Batch(insertSections: [.init(at: 2, section: Section())], moveRows: [move(path(0, 0), path(2, 0))]),
            rule: .rowInReplacedSection, detail: "cannot move a row into a newly inserted section (2)"
        ),
        RefusalCase(
            name: "move a row into a reloaded section, named by its index after the update", counts: [2, 2, 2],
            batch: Batch(
                deleteSections: [0], reloadSections: [.init(at: 2, section: Section())],
                moveRows: [move(path(1, 0), path(1, 0))]
            ),
            rule: .rowInReplacedSection, detail: "cannot move a row into a reloaded section (1)"
        ),
    ]

    @Test("Each position out of range is refused in UIKit's words", arguments: outOfRangeCases)
    func outOfRange(_ refusal: RefusalCase) {
        refusal.check()
    }

    @Test("Each conflict between row operations is refused in UIKit's words", arguments: conflictCases)
    func conflict(_ refusal: RefusalCase) {
        refusal.check()
    }

    @Test("Each row edit in a replaced section is refused", arguments: replacedSectionCases)
    func replacedSection(_ refusal: RefusalCase) {
        refusal.check()
    }
}
