#if canImport(UIKit)
import TableModel
import UIKit

extension UITableView {
    /// Shows `update`: `reloadData()` for a reload, else one
    /// `performBatchUpdates` with the update's calls and animation. Set the data
    /// source's table to `update.table` first, as UIKit asks the new counts.
    @MainActor
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
        performBatchUpdates(
            { update.performBatchUpdates(on: UITableViewTarget(tableView: self)) }, completion: completion)
    }
}

/// `BatchUpdateTarget` on a `UITableView`: `TableIndexPath`s become `IndexPath`s.
@MainActor
struct UITableViewTarget: BatchUpdateTarget {
    let tableView: UITableView

    func deleteSections(_ sections: [Int], with animation: RowAnimation) {
        tableView.deleteSections(IndexSet(sections), with: animation.uiKit)
    }
    func deleteRows(at indexPaths: [TableIndexPath], with animation: RowAnimation) {
        tableView.deleteRows(at: indexPaths.map(\.uiKit), with: animation.uiKit)
    }
    func reloadSections(_ sections: [Int], with animation: RowAnimation) {
        tableView.reloadSections(IndexSet(sections), with: animation.uiKit)
    }
    func reloadRows(at indexPaths: [TableIndexPath], with animation: RowAnimation) {
        tableView.reloadRows(at: indexPaths.map(\.uiKit), with: animation.uiKit)
    }
    func moveSection(_ section: Int, toSection newSection: Int) {
        tableView.moveSection(section, toSection: newSection)
    }
    func moveRow(at indexPath: TableIndexPath, to newIndexPath: TableIndexPath) {
        tableView.moveRow(at: indexPath.uiKit, to: newIndexPath.uiKit)
    }
    func insertSections(_ sections: [Int], with animation: RowAnimation) {
        tableView.insertSections(IndexSet(sections), with: animation.uiKit)
    }
    func insertRows(at indexPaths: [TableIndexPath], with animation: RowAnimation) {
        tableView.insertRows(at: indexPaths.map(\.uiKit), with: animation.uiKit)
    }
}

extension UITableViewDiffableDataSource where SectionIdentifierType == DiffableID, ItemIdentifierType == DiffableID {
    /// Shows `update` through the data source: its snapshot, with the
    /// reloaded rows reconfigured, animated unless the update is a reload or says `none`.
    @MainActor
    public func apply(_ update: TableUpdate, completion: (() -> Void)? = nil) {
        var snapshot = NSDiffableDataSourceSnapshot<DiffableID, DiffableID>()
        let content = update.snapshot
        snapshot.appendSections(content.sectionIdentifiers)
        for (section, items) in zip(content.sectionIdentifiers, content.itemIdentifiers) {
            snapshot.appendItems(items, toSection: section)
        }
        let reloaded = update.batch?.reloadRows.compactMap { $0.row.id.map(DiffableID.id) } ?? []
        snapshot.reconfigureItems(reloaded.filter { snapshot.indexOfItem($0) != nil })
        defaultRowAnimation = update.animation.uiKit
        apply(snapshot, animatingDifferences: !update.isReload && update.animation != .none, completion: completion)
    }
}

extension RowAnimation {
    /// `UITableView.RowAnimation`.
    var uiKit: UITableView.RowAnimation {
        switch self {
        case .fade: .fade
        case .right: .right
        case .left: .left
        case .top: .top
        case .bottom: .bottom
        case .middle: .middle
        case .none: .none
        case .automatic: .automatic
        }
    }
}

extension TableIndexPath {
    /// `IndexPath(row:section:)`.
    var uiKit: IndexPath { IndexPath(row: row, section: section) }
}
#endif
