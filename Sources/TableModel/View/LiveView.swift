/// A view kept live over a changing table, as `NSFetchedResultsController`
/// keeps a `UITableView`: each new version of the table gives the batches that
/// turn the view as it was into the view as it is, in the view's own index paths.
///
/// The batches are the snapshot diff's (`SnapshotDiff`) of the two views, so
/// they obey every rule a batch obeys: rows entering the view are inserts, rows
/// leaving it deletes, rows whose place in the order changed moves, rows changed
/// in place reloads, and group sections appear and go as their values do. Rows
/// are followed by their id; a row without one is its content, so an edit of
/// it shows as a delete and an insert. Nothing when the view did not change.
public struct LiveView: Sendable {
    public let query: TableQuery
    /// The view as its subscribers last saw it.
    public private(set) var view: Table

    public init(query: TableQuery, table: Table) {
        self.query = query
        view = query.view(of: table)
    }

    /// Moves the view to `table`'s; answers the batches (none, or one to three,
    /// applied in order) that take a client from the old view to the new one.
    public mutating func update(to table: Table) -> [Batch] {
        let next = query.view(of: table)
        let batches = SnapshotDiff.batches(from: view, to: next)
        view = next
        return batches
    }
}
