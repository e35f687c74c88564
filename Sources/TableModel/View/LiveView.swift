/// A view kept live over a changing table, as `NSFetchedResultsController`
/// keeps a `UITableView`: each new version of the table gives the batches that
/// turn the view as it was into the view as it is, in the view's own index paths.
///
/// The batches obey every rule a batch obeys: rows entering the view are
/// inserts, rows leaving it deletes, rows whose place in the order changed
/// moves, rows changed in place reloads, and group sections appear and go as
/// their values do. Nothing when the view did not change.
///
/// Told the batch that made the table's new version (`update(to:by:)`), a
/// view follows a batch of up to 64 row reloads, inserts, deletes and moves
/// incrementally, in O(k log² n) for k rows, its rows' labels moved lazily
/// (`LiveView+Incremental.swift`, `ViewLabels`); any other change derives the
/// view again and diffs it with the view as it was (`SnapshotDiff`, O(n)),
/// rows followed by their id, a row without one by its content.
public struct LiveView: Sendable {
    /// One batch of an update, with the view right after it (to render from).
    public struct Step: Sendable {
        public var batch: Batch
        public var view: Table
    }

    public let query: TableQuery
    /// The view as its subscribers last saw it.
    public internal(set) var view: Table
    /// The sections of the table the view was derived from, where the rows a
    /// change replaced are read, and that table's version.
    var source: [Section]
    var sourceVersion: Int
    /// For each section of the view, the labels of its rows (`ViewLabel`):
    /// their places in `source`, which break the ties of the view's order.
    var labels: ViewLabels
    /// Without `group`: for each section of the view, the index of the
    /// table's section it shows, ascending.
    var tableSections: [Int]
    /// The query's selecting half, prepared once.
    let selection: RowSelection

    public init(query: TableQuery, table: Table) {
        self.query = query
        selection = RowSelection(query)
        let derived = query.derive(from: table, labelled: true)
        view = derived.view
        source = table.sections
        sourceVersion = table.version
        labels = ViewLabels(derived.sections.map(\.labels))
        tableSections = derived.tableSections
    }

    /// Moves the view to `table`'s, however the table changed: derives the
    /// view again and diffs it with the view as it was. Answers the steps
    /// (none, or one to three batches, applied in order) that take a client
    /// from the old view to the new one; nil when no batch could (which the
    /// snapshot diff's property tests rule out): the client then needs the
    /// whole view.
    public mutating func update(to table: Table) -> [Step]? {
        let derived = query.derive(from: table, labelled: true)
        var steps: [Step] = []
        var working = view
        var applies = true
        for batch in SnapshotDiff.batches(from: view, to: derived.view) {
            guard (try? working.applyDerived(batch)) != nil else {
                applies = false
                break
            }
            steps.append(Step(batch: batch, view: working))
        }
        view = derived.view
        source = table.sections
        sourceVersion = table.version
        labels = ViewLabels(derived.sections.map(\.labels), bound: labels.bound)
        tableSections = derived.tableSections
        return applies ? steps : nil
    }

    /// Moves the view to `table`'s, which `batches` (as applied, in order)
    /// made of the table the view was last moved to. A single batch of row
    /// edits (reloads, inserts, deletes, moves) is followed incrementally;
    /// anything else as `update(to:)`.
    public mutating func update(to table: Table, by batches: [Batch]) -> [Step]? {
        var change = Change(to: table, by: batches)
        return update(&change)
    }

    /// Moves the view through `change`, as `update(to:by:)`; the views of a
    /// table share one change, so what following it takes that is the same
    /// for every view is worked out once, by the first view that needs it.
    public mutating func update(_ change: inout Change) -> [Step]? {
        let table = change.table
        guard change.batches.count == 1, table.version == sourceVersion + 1, table.sections.count == source.count,
            case .followed(let steps) = followIncrementally(&change)
        else { return update(to: table) }
        source = table.sections
        sourceVersion = table.version
        view.version = table.version
        return steps
    }
}
