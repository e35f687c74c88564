import TableModel
import Testing
import WebTableViewClient

/// A table view that records the calls made on it, `performBatchUpdates` as
/// `begin` and `end` around the calls inside it: what `UITableView` is to the
/// adapter (`TableUpdateView`), on Linux.
final class RecordingTableView: TableUpdateView {
    var calls: [String] = []

    func reloadData() {
        calls.append("reloadData")
    }
    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?) {
        calls.append("begin")
        updates?()
        calls.append("end")
        completion?(true)
    }

    func deleteSections(_ sections: [Int], with animation: RowAnimation) {
        calls.append("deleteSections \(sections) \(animation)")
    }
    func deleteRows(at indexPaths: [TableIndexPath], with animation: RowAnimation) {
        calls.append("deleteRows \(indexPaths) \(animation)")
    }
    func reloadSections(_ sections: [Int], with animation: RowAnimation) {
        calls.append("reloadSections \(sections) \(animation)")
    }
    func reloadRows(at indexPaths: [TableIndexPath], with animation: RowAnimation) {
        calls.append("reloadRows \(indexPaths) \(animation)")
    }
    func moveSection(_ section: Int, toSection newSection: Int) {
        calls.append("moveSection \(section) \(newSection)")
    }
    func moveRow(at indexPath: TableIndexPath, to newIndexPath: TableIndexPath) {
        calls.append("moveRow \(indexPath) \(newIndexPath)")
    }
    func insertSections(_ sections: [Int], with animation: RowAnimation) {
        calls.append("insertSections \(sections) \(animation)")
    }
    func insertRows(at indexPaths: [TableIndexPath], with animation: RowAnimation) {
        calls.append("insertRows \(indexPaths) \(animation)")
    }
}

@MainActor @Suite struct BatchUpdateTargetTests {
    /// The update of a batch applied to `table`, as the follower makes it.
    private func update(_ batch: Batch, on table: Table) throws -> TableUpdate {
        var after = table
        let published = try after.apply(batch)
        return TableUpdate(version: after.version, batch: published, table: after)
    }

    private var table: Table {
        Table(
            id: "t",
            sections: (0..<3).map { s in
                Section(id: "s\(s)", rows: (0..<4).map { Row(id: "r\(s)-\($0)", text: "\(s).\($0)") })
            })
    }

    @Test func rowDeletesInsertsMovesAndReloadsInUIKitsOrder() throws {
        let batch = Batch(
            deleteRows: [TableIndexPath(0, 3), TableIndexPath(0, 1)],
            insertRows: [Batch.RowItem(at: TableIndexPath(1, 0), row: Row(id: "new", text: "New"))],
            reloadRows: [Batch.RowItem(at: TableIndexPath(2, 2), row: Row(id: "r2-2", text: "again"))],
            moveRows: [Batch.RowMove(from: TableIndexPath(0, 0), to: TableIndexPath(2, 0))],
            animation: .fade)
        let view = RecordingTableView()
        try update(batch, on: table).performBatchUpdates(on: view)
        #expect(
            view.calls == [
                "deleteRows [[0, 1], [0, 3]] fade",
                "reloadRows [[2, 2]] fade",
                "moveRow [0, 0] [2, 0]",
                "insertRows [[1, 0]] fade",
            ])
    }

    @Test func sectionChangesComeBeforeTheRowsOfEachKind() throws {
        let batch = Batch(
            deleteSections: [0],
            insertSections: [Batch.SectionItem(at: 2, section: Section(id: "n", rows: []))],
            reloadSections: [Batch.SectionItem(at: 1, section: Section(id: "s1", header: "One", rows: []))],
            moveSections: [Batch.SectionMove(from: 2, to: 0)],
            animation: .left)
        let view = RecordingTableView()
        try update(batch, on: table).performBatchUpdates(on: view)
        #expect(
            view.calls == [
                "deleteSections [0] left",
                "reloadSections [1] left",
                "moveSection 2 0",
                "insertSections [2] left",
            ])
    }

    @Test func aReloadAndAPressMakeNoBatchCall() throws {
        let view = RecordingTableView()
        let reload = TableUpdate(version: 0, batch: nil, table: table)
        reload.performBatchUpdates(on: view)
        #expect(reload.isReload && !reload.changesRows)
        var buttons = table
        _ = try buttons.apply(
            Batch(reloadRows: [
                Batch.RowItem(at: TableIndexPath(0, 0), row: Row(id: "r0-0", accessoryView: .button(title: "Go")))
            ]))
        let press = try update(buttons.pressBatch(at: TableIndexPath(0, 0)), on: buttons)
        press.performBatchUpdates(on: view)
        #expect(view.calls.isEmpty)
        #expect(press.press == Batch.Press(at: TableIndexPath(0, 0), id: "r0-0") && !press.changesRows)
    }

    @Test func theSnapshotNamesSectionsAndItemsByIdOrPosition() {
        let table = Table(
            id: "t",
            sections: [Section(id: "a", rows: [Row(id: "x"), Row(text: "no id")]), Section(rows: [Row(id: "y")])])
        let snapshot = TableUpdate(version: 0, batch: nil, table: table).snapshot
        #expect(snapshot.sectionIdentifiers == [.id("a"), .section(1)])
        #expect(snapshot.itemIdentifiers == [[.id("x"), .row(TableIndexPath(0, 1))], [.id("y")]])
    }

    /// `apply` on a table view: one `performBatchUpdates` around the calls of
    /// an update that changes rows, `reloadData()` for a reload, nothing for a
    /// press; the completion is called once each time.
    @Test func applyingAnUpdateBatchesReloadsOrOnlyCompletes() throws {
        let view = RecordingTableView()
        var completions: [Bool] = []
        let moved = try update(Batch(moveSections: [Batch.SectionMove(from: 0, to: 2)], animation: .top), on: table)
        view.apply(moved) { completions.append($0) }
        #expect(view.calls == ["begin", "moveSection 0 2", "end"])
        view.calls = []
        view.apply(TableUpdate(version: 0, batch: nil, table: table)) { completions.append($0) }
        #expect(view.calls == ["reloadData"])
        view.calls = []
        var buttons = table
        _ = try buttons.apply(
            Batch(reloadRows: [
                Batch.RowItem(at: TableIndexPath(0, 0), row: Row(id: "r0-0", accessoryView: .button(title: "Go")))
            ]))
        view.apply(try update(buttons.pressBatch(at: TableIndexPath(0, 0)), on: buttons)) { completions.append($0) }
        #expect(view.calls.isEmpty)
        #expect(completions == [true, true, true])
    }

    /// What a diffable data source is handed: the reloaded rows with an id
    /// that are still there, and whether to animate.
    @Test func aDiffableDataSourceReconfiguresTheReloadedRowsWithIds() throws {
        let table = Table(id: "t", sections: [Section(id: "a", rows: [Row(id: "x"), Row(text: "no id")])])
        let batch = Batch(
            reloadRows: [
                Batch.RowItem(at: TableIndexPath(0, 0), row: Row(id: "x", text: "again")),
                Batch.RowItem(at: TableIndexPath(0, 1), row: Row(text: "still no id")),
            ],
            animation: .fade)
        let changed = try update(batch, on: table)
        #expect(changed.reconfiguredItems == [.id("x")])
        #expect(changed.animatesDifferences)
        var quiet = batch
        quiet.animation = .none
        #expect(!(try update(quiet, on: table)).animatesDifferences)
        let reload = TableUpdate(version: 0, batch: nil, table: table)
        #expect(reload.reconfiguredItems.isEmpty && !reload.animatesDifferences)
    }
}
