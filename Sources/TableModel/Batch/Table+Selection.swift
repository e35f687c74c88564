/// Why `Table.selectionBatch(selecting:at:)` makes no change.
public enum SelectionRefusal: Error, Sendable, Equatable {
    /// `allowsSelection` is false.
    case selectionDisabled
    /// The index path names no row.
    case noRow
}

extension Table {
    /// UIKit's `selectRow(at:)` / `deselectRow(at:)` as a change: a `reloadRows`
    /// (animation `none`) of every row whose `selected` flips.
    ///
    /// Selecting without `allowsMultipleSelection` deselects every other selected
    /// row; selecting a selected row, or deselecting one that is not selected,
    /// changes nothing (an empty batch). Refused on a table that does not allow
    /// selection, checked after the row exists.
    public func selectionBatch(selecting: Bool, at indexPath: TableIndexPath) throws(SelectionRefusal) -> Batch {
        guard let target = row(at: indexPath) else { throw .noRow }
        guard allowsSelection else { throw .selectionDisabled }
        if selecting, target.selected { return Batch() }
        var reloads: [Batch.RowItem] = []
        func flip(_ path: TableIndexPath, to value: Bool) {
            guard var row = row(at: path), row.selected != value else { return }
            row.selected = value
            reloads.append(.init(at: path, row: row))
        }
        if selecting && !allowsMultipleSelection {
            for (s, section) in sections.enumerated() {
                for (r, row) in section.rows.enumerated() where row.selected && TableIndexPath(s, r) != indexPath {
                    flip(TableIndexPath(s, r), to: false)
                }
            }
        }
        flip(indexPath, to: selecting)
        if reloads.isEmpty { return Batch() }
        return Batch(reloadRows: reloads, animation: .none)
    }
}
