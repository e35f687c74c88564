/// Why `Table.pressBatch(at:)` makes no change.
public enum PressRefusal: Error, Sendable, Equatable {
    /// The index path names no row.
    case noRow
    /// No row has this id.
    case unknownID(String)
    /// The row's `accessoryView` is not a button.
    case notAButton
}

extension Table {
    /// A press of a row's accessory button (`.touchUpInside`, what
    /// `tableView(_:accessoryButtonTappedForRowWith:)` reports) as a change: a
    /// batch that changes no row and carries only `press`, so it is versioned,
    /// logged and published like any edit (docs/API.md, "Accessory buttons").
    /// Refused for a row whose accessory view is not a button.
    public func pressBatch(at indexPath: TableIndexPath) throws(PressRefusal) -> Batch {
        guard let target = row(at: indexPath) else { throw .noRow }
        guard case .button = target.accessoryView else { throw .notAButton }
        return Batch(press: Batch.Press(at: indexPath, id: target.id), animation: .none)
    }

    /// `pressBatch(at:)` for the row with id `id`.
    public func pressBatch(forItem id: String) throws(PressRefusal) -> Batch {
        guard let indexPath = indexPath(ofRow: id) else { throw .unknownID(id) }
        return try pressBatch(at: indexPath)
    }

    /// Where the row with id `id` is; nil when no row has it.
    public func indexPath(ofRow id: String) -> TableIndexPath? {
        guard ids.rowIDs.contains(id) else { return nil }
        for (s, section) in sections.enumerated() {
            for (r, row) in section.rows.enumerated() where row.id == id {
                return TableIndexPath(s, r)
            }
        }
        return nil
    }
}
