import TableModel

/// The calls `performBatchUpdates` takes inside its block, as a protocol: the
/// adapter for `UITableView` implements it on Apple platforms, a recording fake
/// in the tests. Index paths are `TableIndexPath`s and sets of sections are
/// arrays; the adapter turns them into `IndexPath`s and `IndexSet`s. On the
/// main actor, as UIKit is.
@MainActor
public protocol BatchUpdateTarget {
    func deleteSections(_ sections: [Int], with animation: RowAnimation)
    func deleteRows(at indexPaths: [TableIndexPath], with animation: RowAnimation)
    func reloadSections(_ sections: [Int], with animation: RowAnimation)
    func reloadRows(at indexPaths: [TableIndexPath], with animation: RowAnimation)
    func moveSection(_ section: Int, toSection newSection: Int)
    func moveRow(at indexPath: TableIndexPath, to newIndexPath: TableIndexPath)
    func insertSections(_ sections: [Int], with animation: RowAnimation)
    func insertRows(at indexPaths: [TableIndexPath], with animation: RowAnimation)
}

extension TableUpdate {
    /// Makes the update's calls on `target`, the body of a `performBatchUpdates`
    /// block: deletes, then reloads, then moves, then inserts; sections before
    /// rows within each. UIKit reads them all against one before-and-after pair,
    /// whatever their order; this one is fixed so that a log of the calls reads
    /// the way UIKit processes them. A list with nothing in it makes no call;
    /// a `reloadData` update makes none (the caller reloads).
    @MainActor
    public func performBatchUpdates(on target: some BatchUpdateTarget) {
        guard let batch else { return }
        let animation = batch.animation
        if !batch.deleteSections.isEmpty { target.deleteSections(batch.deleteSections, with: animation) }
        if !batch.deleteRows.isEmpty { target.deleteRows(at: batch.deleteRows, with: animation) }
        if !batch.reloadSections.isEmpty { target.reloadSections(reloadedSections, with: animation) }
        if !batch.reloadRows.isEmpty { target.reloadRows(at: reloadedRows, with: animation) }
        for move in batch.moveSections { target.moveSection(move.from, toSection: move.to) }
        for move in batch.moveRows { target.moveRow(at: move.from, to: move.to) }
        if !batch.insertSections.isEmpty { target.insertSections(insertedSections, with: animation) }
        if !batch.insertRows.isEmpty { target.insertRows(at: insertedRows, with: animation) }
    }

    /// Whether the view has anything to animate: false for a `reloadData` update,
    /// a press and a change of the table's properties alone.
    public var changesRows: Bool {
        guard let batch else { return false }
        return
            !(batch.deleteSections.isEmpty && batch.insertSections.isEmpty && batch.reloadSections.isEmpty
            && batch.moveSections.isEmpty && batch.deleteRows.isEmpty && batch.insertRows.isEmpty
            && batch.reloadRows.isEmpty && batch.moveRows.isEmpty)
    }
}
