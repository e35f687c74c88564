import Testing
@testable import TableModel
import SeededRandom

/// `Table.selectionBatch(selecting:at:)`: UIKit's `selectRow`/`deselectRow` rules.
@Suite("Selection")
struct SelectionTests {
    /// Sections `A` (3 rows) and `B` (2 rows); the rows at `selected` start selected.
    static func table(selected: [TableIndexPath] = [], multiple: Bool = false, allowed: Bool = true) -> Table {
        var table = BatchFixture.table([3, 2])
        table.allowsMultipleSelection = multiple
        table.allowsSelection = allowed
        for path in selected {
            var row = table.sections[path.section].rows[path.row]
            row.selected = true
            _ = try? table.apply(Batch(reloadRows: [.init(at: path, row: row)]))
        }
        return table
    }

    /// The index paths of the selected rows.
    static func selection(_ table: Table) -> [TableIndexPath] {
        table.sections.enumerated().flatMap { s, section in
            section.rows.enumerated().compactMap { r, row in row.selected ? TableIndexPath(s, r) : nil }
        }
    }

    /// The batch, applied to `table`: it must be a valid batch.
    static func after(_ batch: Batch, on table: Table) throws -> Table {
        var copy = table
        _ = try copy.apply(batch)
        return copy
    }

    @Test func selectingWithoutMultipleSelectionDeselectsTheRowSelectedBefore() throws {
        let table = Self.table(selected: [TableIndexPath(0, 1)])
        let batch = try table.selectionBatch(selecting: true, at: TableIndexPath(1, 0))
        #expect(batch.reloadRows.map(\.at) == [TableIndexPath(0, 1), TableIndexPath(1, 0)])
        #expect(batch.reloadRows.map(\.row.selected) == [false, true])
        #expect(batch.reloadRows.map(\.row.text) == ["A1", "B0"])
        #expect(batch.animation == .none)
        #expect(batch.deleteRows.isEmpty && batch.insertRows.isEmpty && batch.moveRows.isEmpty)
        #expect(Self.selection(try Self.after(batch, on: table)) == [TableIndexPath(1, 0)])
    }

    @Test func selectingWithoutMultipleSelectionClearsEverySelectedRow() throws {
        // A document may arrive with several rows selected; one selection leaves one.
        let table = Self.table(selected: [TableIndexPath(0, 0), TableIndexPath(0, 2), TableIndexPath(1, 1)])
        let batch = try table.selectionBatch(selecting: true, at: TableIndexPath(1, 0))
        #expect(Self.selection(try Self.after(batch, on: table)) == [TableIndexPath(1, 0)])
        #expect(batch.reloadRows.count == 4)
    }

    @Test func selectingWithMultipleSelectionKeepsTheOthers() throws {
        let table = Self.table(selected: [TableIndexPath(0, 1)], multiple: true)
        let batch = try table.selectionBatch(selecting: true, at: TableIndexPath(1, 1))
        #expect(batch.reloadRows.map(\.at) == [TableIndexPath(1, 1)])
        #expect(Self.selection(try Self.after(batch, on: table)) == [TableIndexPath(0, 1), TableIndexPath(1, 1)])
    }

    @Test(arguments: [false, true])
    func selectingASelectedRowChangesNothing(multiple: Bool) throws {
        let table = Self.table(selected: [TableIndexPath(0, 0), TableIndexPath(0, 2)], multiple: multiple)
        #expect(try table.selectionBatch(selecting: true, at: TableIndexPath(0, 2)).isEmpty)
    }

    @Test(arguments: [false, true])
    func deselectingTouchesOnlyThatRow(multiple: Bool) throws {
        let table = Self.table(selected: [TableIndexPath(0, 0), TableIndexPath(1, 1)], multiple: multiple)
        let batch = try table.selectionBatch(selecting: false, at: TableIndexPath(1, 1))
        #expect(batch.reloadRows.map(\.at) == [TableIndexPath(1, 1)])
        #expect(batch.reloadRows.first?.row.selected == false)
        #expect(batch.animation == .none)
        #expect(Self.selection(try Self.after(batch, on: table)) == [TableIndexPath(0, 0)])
        #expect(try table.selectionBatch(selecting: false, at: TableIndexPath(0, 1)).isEmpty)
    }

    @Test(arguments: [true, false])
    func aTableThatDoesNotAllowSelectionRefuses(selecting: Bool) {
        let table = Self.table(selected: [TableIndexPath(0, 0)], allowed: false)
        #expect(throws: SelectionRefusal.selectionDisabled) {
            try table.selectionBatch(selecting: selecting, at: TableIndexPath(0, 0))
        }
    }

    @Test(arguments: [TableIndexPath(2, 0), TableIndexPath(0, 3), TableIndexPath(1, 2), TableIndexPath(0, -1)])
    func aPathNamingNoRowIsRefused(_ path: TableIndexPath) {
        // Checked before selection is: the row's absence is the first thing wrong.
        for allowed in [true, false] {
            #expect(throws: SelectionRefusal.noRow) {
                try Self.table(allowed: allowed).selectionBatch(selecting: true, at: path)
            }
        }
    }

    @Test func theReloadedRowsKeepEverythingButTheirSelection() throws {
        var table = Self.table()
        var row = table.sections[0].rows[1]
        row.detail = "kept"
        row.id = "keep-me"
        _ = try table.apply(Batch(reloadRows: [.init(at: TableIndexPath(0, 1), row: row)]))
        let batch = try table.selectionBatch(selecting: true, at: TableIndexPath(0, 1))
        var expected = row
        expected.selected = true
        #expect(batch.reloadRows == [.init(at: TableIndexPath(0, 1), row: expected)])
    }

    @Test func randomSelectionsKeepUIKitsInvariant() throws {
        var generator = SeededGenerator(seed: 19)
        for multiple in [false, true] {
            var table = Self.table(multiple: multiple)
            var reference = Set<TableIndexPath>()
            for _ in 0..<200 {
                let path = TableIndexPath(
                    Int.random(in: 0..<2, using: &generator), Int.random(in: 0..<2, using: &generator))
                let selecting = Bool.random(using: &generator)
                _ = try table.apply(try table.selectionBatch(selecting: selecting, at: path))
                if selecting {
                    if !multiple { reference.removeAll() }
                    reference.insert(path)
                } else {
                    reference.remove(path)
                }
                #expect(Set(Self.selection(table)) == reference)
            }
        }
    }
}
