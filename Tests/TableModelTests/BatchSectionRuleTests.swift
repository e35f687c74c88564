import Testing
@testable import TableModel

/// One refused batch: on a table of sections holding `counts` rows, `batch` breaks
/// `rule` and is refused with exactly `detail`.
struct RefusalCase: Sendable, CustomTestStringConvertible {
    var name: String
    var counts: [Int]
    var batch: Batch
    var rule: BatchError.Rule
    var detail: String

    var testDescription: String { name }

    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        expectRefused(batch, on: BatchFixture.table(counts), rule, detail, sourceLocation: sourceLocation)
    }
}

@Suite("Batch rules: sections")
struct BatchSectionRuleTests {
    static let cases: [RefusalCase] = [
        RefusalCase(
            name: "delete a section out of range", counts: [1, 1, 1],
            batch: Batch(deleteSections: [3]), rule: .indexOutOfRange,
            detail: "attempt to delete section 3, but there are only 3 sections before the update"
        ),
        RefusalCase(
            name: "reload a section out of range (a reload is a delete plus an insert)", counts: [1, 1, 1],
            batch: Batch(reloadSections: [.init(at: 3, section: Section())]), rule: .indexOutOfRange,
            detail: "attempt to delete section 3, but there are only 3 sections before the update"
        ),
        RefusalCase(
            name: "insert a section out of range", counts: [1, 1, 1],
            batch: Batch(insertSections: [.init(at: 4, section: Section())]), rule: .indexOutOfRange,
            detail: "attempt to insert section 4 but there are only 4 sections after the update"
        ),
        RefusalCase(
            name: "move a section from out of range", counts: [1, 1, 1],
            batch: Batch(moveSections: [.init(from: 3, to: 0)]), rule: .indexOutOfRange,
            detail: "attempt to move section 3, but there are only 3 sections before the update"
        ),
        RefusalCase(
            name: "move a section to out of range (UIKit's own 'to to')", counts: [1, 1, 1],
            batch: Batch(deleteSections: [2], moveSections: [.init(from: 0, to: 2)]), rule: .indexOutOfRange,
            detail: "attempt to to move section 0 to section 2, but there are only 2 sections after the update"
        ),
        RefusalCase(
            name: "delete a section twice", counts: [1, 1, 1],
            batch: Batch(deleteSections: [1, 1]), rule: .duplicatePosition,
            detail: "attempt to delete section 1 twice in the same update"
        ),
        RefusalCase(
            name: "reload a section twice", counts: [1, 1, 1],
            batch: Batch(reloadSections: [.init(at: 1, section: Section()), .init(at: 1, section: Section())]),
            rule: .duplicatePosition, detail: "attempt to reload section 1 twice in the same update"
        ),
        RefusalCase(
            name: "insert two sections at one index", counts: [1, 1, 1],
            batch: Batch(insertSections: [.init(at: 1, section: Section()), .init(at: 1, section: Section())]),
            rule: .duplicatePosition, detail: "attempt to insert section 1 twice in the same update"
        ),
        RefusalCase(
            name: "move one section to two places", counts: [1, 1, 1],
            batch: Batch(moveSections: [.init(from: 0, to: 2), .init(from: 0, to: 1)]), rule: .duplicatePosition,
            detail: "attempt to move section 0 to both section 1 and section 2"
        ),
        RefusalCase(
            name: "move the same section twice", counts: [1, 1, 1],
            batch: Batch(moveSections: [.init(from: 0, to: 1), .init(from: 0, to: 1)]), rule: .duplicatePosition,
            detail: "attempt to move section 0 twice in the same update"
        ),
        RefusalCase(
            name: "move two sections to one place", counts: [1, 1, 1],
            batch: Batch(moveSections: [.init(from: 1, to: 2), .init(from: 0, to: 2)]), rule: .duplicatePosition,
            detail: "attempt to move both section 0 and section 1 to section 2"
        ),
        RefusalCase(
            name: "delete and reload one section", counts: [1, 1, 1],
            batch: Batch(deleteSections: [2], reloadSections: [.init(at: 2, section: Section())]),
            rule: .deleteAndReload, detail: "attempt to delete and reload the same section (2)"
        ),
        RefusalCase(
            name: "delete and move one section", counts: [1, 1, 1],
            batch: Batch(deleteSections: [2], moveSections: [.init(from: 2, to: 0)]),
            rule: .deleteAndMove, detail: "attempt to perform a delete and a move from the same section (2)"
        ),
        RefusalCase(
            name: "reload and move one section", counts: [1, 1, 1],
            batch: Batch(reloadSections: [.init(at: 2, section: Section())], moveSections: [.init(from: 2, to: 0)]),
            rule: .reloadAndMove, detail: "attempt to reload and move the same section (2)"
        ),
        RefusalCase(
            name: "insert and move to one section index", counts: [1, 1, 1],
            batch: Batch(insertSections: [.init(at: 1, section: Section())], moveSections: [.init(from: 0, to: 1)]),
            rule: .duplicateTarget, detail: "attempt to perform an insert and a move to the same section (1)"
        ),
    ]

    @Test("Each section rule is refused in UIKit's words", arguments: cases)
    func refused(_ refusal: RefusalCase) {
        refusal.check()
    }

    @Test("Every rule slug is listed once and names a rule")
    func ruleSlugs() {
        let slugs = BatchError.Rule.allCases.map(\.rawValue)
        #expect(Set(slugs).count == slugs.count)
        #expect(slugs.contains("row-in-replaced-section"))
        #expect(BatchError(type: "no-such-rule", detail: "").rule == nil)
    }
}
