import TableModel

/// A table view that shows a followed table's updates, as `UITableView` does:
/// the calls of a batch (``BatchUpdateTarget``), made inside one
/// `performBatchUpdates`, or `reloadData()`. `UITableView` conforms on Apple
/// platforms with its own two methods; the tests use a recording fake, so the
/// adapter's logic (``apply(_:completion:)``) runs and is tested on Linux too.
@MainActor
public protocol TableUpdateView: BatchUpdateTarget {
    /// Shows the table anew, whole, without animation.
    func reloadData()
    /// Makes the calls of `updates` as one animation, then calls `completion`
    /// with whether it ran to its end.
    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?)
}

extension TableUpdateView {
    /// Shows `update`: `reloadData()` for a reload, nothing (but `completion`)
    /// for an update without row changes (a press, the table's properties),
    /// else one `performBatchUpdates` with the update's calls and animation.
    /// Set the data source's table to `update.table` first, as UIKit asks the
    /// new counts.
    public func apply(_ update: TableUpdate, completion: ((Bool) -> Void)? = nil) {
        guard !update.isReload else {
            reloadData()
            completion?(true)
            return
        }
        guard update.changesRows else {
            completion?(true)
            return
        }
        performBatchUpdates({ update.performBatchUpdates(on: self) }, completion: completion)
    }
}

extension TableUpdate {
    /// The rows a diffable data source reconfigures for this update: the
    /// reloaded rows that have an id and are still in the table after it.
    public var reconfiguredItems: [DiffableID] {
        guard let reloads = batch?.reloadRows, !reloads.isEmpty else { return [] }
        let present = Set(snapshot.itemIdentifiers.joined())
        return reloads.compactMap { $0.row.id.map(DiffableID.id) }.filter(present.contains)
    }

    /// Whether a diffable data source animates this update: not a reload, and
    /// not one whose animation is `none`.
    public var animatesDifferences: Bool {
        !isReload && animation != .none
    }
}
