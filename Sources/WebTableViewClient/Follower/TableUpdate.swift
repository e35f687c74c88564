import TableModel

/// One change of a followed table, ready for a table view: what
/// `performBatchUpdates` needs (index paths valid against the mirror as it was
/// before, and the animation) and the table after it, whole, for the data source.
///
/// A batch update names deletes, reloads and move sources by their positions
/// before the change and inserts and move targets by their positions after
/// it, exactly as UIKit reads them. A `reloadData` update (`isReload`) comes
/// first, and again whenever the follower had to fetch the table anew (a
/// `reset`, a gap): it carries no paths, and the view reloads everything.
///
/// A followed view's versions are its table's, so they skip the changes that
/// left the view as it was; and one change of a view may come as two or three
/// updates of the same version (the view's steps, as UIKit's rules force when
/// rows move into a new section), each its own `performBatchUpdates`, in order.
public struct TableUpdate: Sendable {
    /// The table's version after the update.
    public let version: Int
    /// The batch as the server published it; nil for a `reloadData` update.
    public let batch: Batch?
    /// The mirror after the update: what the data source answers from now on.
    public let table: Table

    public init(version: Int, batch: Batch?, table: Table) {
        self.version = version
        self.batch = batch
        self.table = table
    }

    /// Whether the view reloads everything rather than animating a batch.
    public var isReload: Bool { batch == nil }
    /// `with:` for every call of the batch (`none` for a reload).
    public var animation: RowAnimation { batch?.animation ?? .none }
    /// Sections deleted, by index before the update.
    public var deletedSections: [Int] { batch?.deleteSections ?? [] }
    /// Sections inserted, by index after the update.
    public var insertedSections: [Int] { batch?.insertSections.map(\.at) ?? [] }
    /// Sections reloaded, by index before the update (the same after it).
    public var reloadedSections: [Int] { batch?.reloadSections.map(\.at) ?? [] }
    /// Sections moved: `from` before the update, `to` after it.
    public var movedSections: [Batch.SectionMove] { batch?.moveSections ?? [] }
    /// Rows deleted, by index path before the update.
    public var deletedRows: [TableIndexPath] { batch?.deleteRows ?? [] }
    /// Rows inserted, by index path after the update.
    public var insertedRows: [TableIndexPath] { batch?.insertRows.map(\.at) ?? [] }
    /// Rows reloaded, by index path before the update.
    public var reloadedRows: [TableIndexPath] { batch?.reloadRows.map(\.at) ?? [] }
    /// Rows moved: `from` before the update, `to` after it.
    public var movedRows: [Batch.RowMove] { batch?.moveRows ?? [] }
    /// A press of a row's accessory button this version reports (no row changes).
    public var press: Batch.Press? { batch?.press }

    /// The table after the update as a diffable data source's snapshot wants it:
    /// section identifiers, each with its item identifiers. O(rows): made when asked.
    public var snapshot: TableSnapshot { TableSnapshot(table) }
}

/// An identifier a diffable data source can use for a section or a row: its id,
/// or, for one written without an id, its position (unique, though it does not
/// follow the item when it moves).
public enum DiffableID: Hashable, Sendable, CustomStringConvertible {
    case id(String)
    case section(Int)
    case row(TableIndexPath)

    public var description: String {
        switch self {
        case .id(let id): id
        case .section(let index): "section \(index)"
        case .row(let indexPath): "row \(indexPath)"
        }
    }
}

/// Section and item identifiers of a table, in order: `NSDiffableDataSourceSnapshot`'s content.
public struct TableSnapshot: Sendable, Equatable {
    public var sectionIdentifiers: [DiffableID]
    /// The item identifiers of each section, in the order of `sectionIdentifiers`.
    public var itemIdentifiers: [[DiffableID]]

    public init(_ table: Table) {
        sectionIdentifiers = table.sections.indices.map { index in
            table.sections[index].id.map(DiffableID.id) ?? .section(index)
        }
        itemIdentifiers = table.sections.indices.map { s in
            var items: [DiffableID] = []
            items.reserveCapacity(table.sections[s].rows.count)
            for (r, row) in table.sections[s].rows.enumerated() {
                items.append(row.id.map(DiffableID.id) ?? .row(TableIndexPath(s, r)))
            }
            return items
        }
    }
}
