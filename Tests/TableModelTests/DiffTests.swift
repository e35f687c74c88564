import Testing
@testable import TableModel

private typealias F = DiffFixture

private func path(_ section: Int, _ row: Int) -> TableIndexPath { TableIndexPath(section, row) }

private func move(_ from: TableIndexPath, _ to: TableIndexPath) -> Batch.RowMove {
    Batch.RowMove(from: from, to: to)
}

@Suite("Snapshot diff: rows")
struct DiffRowTests {
    @Test("identical tables, even of different versions, give no batch")
    func identical() {
        let old = F.table([["a", "b"], ["c"]])
        var new = old
        new.version = 9
        #expect(SnapshotDiff.batches(from: old, to: new).isEmpty)
        #expect(SnapshotDiff.batches(from: F.table([]), to: F.table([])).isEmpty)
    }

    @Test("a row deleted and another inserted: one batch, deletes before, inserts after")
    func insertAndDelete() throws {
        let old = F.table([["a", "b", "c", "d"]])
        let new = F.table([["a", "c", "x", "d"]])
        let batches = F.expectDiff(from: old, to: new)
        let batch = try #require(batches.first)
        #expect(batches.count == 1)
        #expect(batch.deleteRows == [path(0, 1)])
        #expect(batch.insertRows == [Batch.RowItem(at: path(0, 2), row: F.row("x"))])
        #expect(batch.moveRows.isEmpty && batch.reloadRows.isEmpty)
    }

    @Test("a row moved within its section: the others stay, one move")
    func moveWithinSection() throws {
        let batches = F.expectDiff(
            from: F.table([["a", "b", "c", "d", "e"]]), to: F.table([["b", "c", "d", "e", "a"]]))
        #expect(batches.count == 1)
        #expect(batches.first?.moveRows == [move(path(0, 0), path(0, 4))])
    }

    @Test("a reversed section keeps one row in place and moves the rest")
    func reversal() {
        let batches = F.expectDiff(from: F.table([["a", "b", "c", "d"]]), to: F.table([["d", "c", "b", "a"]]))
        #expect(batches.count == 1)
        #expect(batches.first?.moveRows.count == 3)
    }

    @Test("a row moved to another section is a move, not a delete and an insert")
    func moveAcrossSections() {
        let batches = F.expectDiff(
            from: F.table([["a", "b", "c"], ["d", "e"]]), to: F.table([["a", "c"], ["d", "b", "e"]]))
        #expect(batches.count == 1)
        #expect(batches.first?.moveRows == [move(path(0, 1), path(1, 1))])
        #expect(batches.first?.deleteRows.isEmpty == true)
        #expect(batches.first?.insertRows.isEmpty == true)
    }

    @Test("a row whose content changes in place is reloaded at its position")
    func reload() {
        let old = F.table([["a", "b"]])
        let new = F.table([F.section("s0", []).withRows([F.row("a"), F.row("b", "B!")])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 1)
        #expect(batches.first?.reloadRows == [Batch.RowItem(at: path(0, 1), row: F.row("b", "B!"))])
    }

    @Test("a row moved and changed: moved first, then reloaded at its new position")
    func moveThenReload() {
        let old = F.table([["a", "b", "c"]])
        let new = F.table([F.section("s0", []).withRows([F.row("c", "C!"), F.row("a"), F.row("b")])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 2)
        #expect(batches.first?.moveRows == [move(path(0, 2), path(0, 0))])
        #expect(batches.first?.reloadRows.isEmpty == true)
        #expect(batches.last?.reloadRows == [Batch.RowItem(at: path(0, 0), row: F.row("c", "C!"))])
    }

    @Test("rows without ids: repeated equal rows pair up in order; a changed one is replaced")
    func rowsWithoutIDs() {
        let old = F.table([F.section("s", []).withRows([F.plain("x"), F.plain("x"), F.plain("y")])])
        let new = F.table([F.section("s", []).withRows([F.plain("x"), F.plain("y"), F.plain("x")])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 1)
        #expect(batches.first?.moveRows.count == 1)
        #expect(batches.first?.insertRows.isEmpty == true && batches.first?.deleteRows.isEmpty == true)

        let edited = F.table([F.section("s", []).withRows([F.plain("x"), F.plain("x"), F.plain("z")])])
        let replaced = F.expectDiff(from: old, to: edited)
        #expect(replaced.first?.deleteRows == [path(0, 2)])
        #expect(replaced.first?.insertRows == [Batch.RowItem(at: path(0, 2), row: F.plain("z"))])
    }

    @Test("equal rows without ids stay in their own section when the sections swap")
    func rowsWithoutIDsPreferTheirSection() {
        let old = F.table([F.section("s0", []).withRows([F.plain("x")]), F.section("s1", []).withRows([F.plain("x")])])
        let new = F.table([F.section("s1", []).withRows([F.plain("x")]), F.section("s0", []).withRows([F.plain("x")])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 1)
        #expect(batches.first?.moveSections.count == 1)
        #expect(batches.first?.moveRows.isEmpty == true)
    }

    @Test("a row with an id and one without never match")
    func idAndContentDoNotMix() {
        let old = F.table([F.section("s", []).withRows([F.row("a")])])
        let new = F.table([F.section("s", []).withRows([F.plain("a")])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.first?.deleteRows == [path(0, 0)])
        #expect(batches.first?.insertRows.count == 1)
    }
}

@Suite("Snapshot diff: sections and stages")
struct DiffSectionTests {
    @Test("sections deleted, inserted and moved in one batch, with their rows")
    func sectionOperations() {
        let old = F.table([F.section("s0", ["a"]), F.section("s1", ["b"]), F.section("s2", ["c"])])
        let new = F.table([F.section("s2", ["c"]), F.section("s0", ["a"]), F.section("s3", ["d"])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 1)
        let batch = batches[0]
        #expect(batch.deleteSections == [1])
        #expect(batch.insertSections == [Batch.SectionItem(at: 2, section: F.section("s3", ["d"]))])
        #expect(batch.moveSections == [Batch.SectionMove(from: 0, to: 1)])
        #expect(batch.deleteRows.isEmpty && batch.insertRows.isEmpty && batch.moveRows.isEmpty)
    }

    @Test("sections without ids are matched by header, footer and index title")
    func sectionsWithoutIDs() {
        let old = F.table([Section(header: "A", rows: [F.row("a")]), Section(header: "B", rows: [F.row("b")])])
        let new = F.table([
            Section(header: "B", rows: [F.row("b")]), Section(header: "A", rows: [F.row("a"), F.row("c")]),
        ])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 1)
        #expect(batches.first?.moveSections.count == 1)
        #expect(batches.first?.insertSections.isEmpty == true && batches.first?.deleteSections.isEmpty == true)
        #expect(batches.first?.insertRows.count == 1)
    }

    @Test("a changed header with row edits in place: one section reload with the final rows")
    func sectionReloadFolded() {
        let old = F.table([F.section("s0", ["a", "b"]), F.section("s1", ["c"])])
        let new = F.table([F.section("s0", ["b", "x"], header: "New"), F.section("s1", ["c"])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 1)
        #expect(batches.first?.reloadSections == [Batch.SectionItem(at: 0, section: new.sections[0])])
        #expect(batches.first?.deleteRows.isEmpty == true && batches.first?.insertRows.isEmpty == true)
    }

    @Test("a changed header on a moved section: moved first, reloaded after")
    func sectionReloadAfterMove() {
        let old = F.table([F.section("s0", ["a"]), F.section("s1", ["b"])])
        let new = F.table([F.section("s1", ["b"]), F.section("s0", ["a"], header: "New")])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 2)
        #expect(batches.first?.moveSections.count == 1)
        #expect(batches.last?.reloadSections == [Batch.SectionItem(at: 1, section: new.sections[1])])
    }

    @Test("a row leaving a deleted section moves out before the section is deleted")
    func rowOutOfDeletedSection() {
        let old = F.table([F.section("s0", ["a", "b"]), F.section("s1", ["c"])])
        let new = F.table([F.section("s1", ["c", "a"])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 2)
        #expect(batches.first?.moveRows == [move(path(0, 0), path(1, 1))])
        #expect(batches.first?.deleteSections.isEmpty == true)
        #expect(batches.last?.deleteSections == [0])
    }

    @Test("a row entering a new section moves in after the section is inserted with its new rows")
    func rowIntoInsertedSection() {
        let old = F.table([F.section("s0", ["a", "b"])])
        let new = F.table([F.section("s0", ["a"]), F.section("s1", ["x", "b"])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 2)
        #expect(batches.first?.insertSections == [Batch.SectionItem(at: 1, section: F.section("s1", ["x"]))])
        #expect(batches.last?.moveRows == [move(path(0, 1), path(1, 1))])
    }

    @Test("a section renamed, rows kept: inserted, rows moved over, old one deleted")
    func renamedSection() {
        let old = F.table([F.section("s0", ["a", "b"])])
        let new = F.table([F.section("s9", ["a", "b"])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 3)
        #expect(batches[0].insertSections == [Batch.SectionItem(at: 0, section: F.section("s9", []))])
        #expect(batches[1].moveRows == [move(path(1, 0), path(0, 0)), move(path(1, 1), path(0, 1))])
        #expect(batches[2].deleteSections == [1])
    }

    @Test("with an opening batch, a moved row's new content is reloaded there, before the move")
    func reloadInOpeningBatch() {
        let old = F.table([F.section("s0", ["a", "b"])])
        let new = F.table([F.section("s0", ["a"]), F.section("s1", []).withRows([F.row("b", "B!")])])
        let batches = F.expectDiff(from: old, to: new)
        #expect(batches.count == 2)
        #expect(batches.first?.reloadRows == [Batch.RowItem(at: path(0, 1), row: F.row("b", "B!"))])
        #expect(batches.last?.moveRows == [move(path(0, 1), path(1, 0))])
    }

    @Test("table properties ride on the first batch, alone when nothing else changes")
    func properties() {
        let old = F.table([F.section("s0", ["a"])], title: "Old")
        var new = F.table([F.section("s0", ["a"])], title: "New")
        new.rowHeight = 60
        let alone = F.expectDiff(from: old, to: new)
        #expect(alone.count == 1)
        #expect(alone.first?.properties == TableProperties(title: .some("New"), rowHeight: 60))

        let moved = F.table([F.section("s1", ["a"])], title: "New")
        let staged = F.expectDiff(from: old, to: moved)
        #expect(staged.count == 3)
        #expect(staged.first?.properties?.title == .some("New"))
        #expect(staged.dropFirst().allSatisfy { $0.properties == nil })
    }
}
