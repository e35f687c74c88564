#if canImport(UIKit)
import TableModel
import UIKit

// The UIKit side of the adapter, thin on purpose: the logic is in
// `TableUpdateView.swift` and `BatchUpdateTarget.swift`, which build and are
// tested on Linux; here `TableIndexPath`s become `IndexPath`s, arrays of
// sections `IndexSet`s, and `RowAnimation` UIKit's. `reloadData()`,
// `performBatchUpdates(_:completion:)` and `moveSection(_:toSection:)` are
// UITableView's own. `TableModel.RowAnimation` is written out: inside
// UITableView, a bare `RowAnimation` is UIKit's.
extension UITableView: TableUpdateView {
    public func deleteSections(_ sections: [Int], with animation: TableModel.RowAnimation) {
        deleteSections(IndexSet(sections), with: animation.uiKit)
    }
    public func deleteRows(at indexPaths: [TableIndexPath], with animation: TableModel.RowAnimation) {
        deleteRows(at: indexPaths.map(\.uiKit), with: animation.uiKit)
    }
    public func reloadSections(_ sections: [Int], with animation: TableModel.RowAnimation) {
        reloadSections(IndexSet(sections), with: animation.uiKit)
    }
    public func reloadRows(at indexPaths: [TableIndexPath], with animation: TableModel.RowAnimation) {
        reloadRows(at: indexPaths.map(\.uiKit), with: animation.uiKit)
    }
    public func moveRow(at indexPath: TableIndexPath, to newIndexPath: TableIndexPath) {
        moveRow(at: indexPath.uiKit, to: newIndexPath.uiKit)
    }
    public func insertSections(_ sections: [Int], with animation: TableModel.RowAnimation) {
        insertSections(IndexSet(sections), with: animation.uiKit)
    }
    public func insertRows(at indexPaths: [TableIndexPath], with animation: TableModel.RowAnimation) {
        insertRows(at: indexPaths.map(\.uiKit), with: animation.uiKit)
    }
}

extension UITableViewDiffableDataSource where SectionIdentifierType == DiffableID, ItemIdentifierType == DiffableID {
    /// Shows `update` through the data source: its snapshot, with the
    /// reloaded rows reconfigured (`reconfiguredItems`), animated when
    /// `animatesDifferences`.
    @MainActor
    public func apply(_ update: TableUpdate, completion: (() -> Void)? = nil) {
        var snapshot = NSDiffableDataSourceSnapshot<DiffableID, DiffableID>()
        let content = update.snapshot
        snapshot.appendSections(content.sectionIdentifiers)
        for (section, items) in zip(content.sectionIdentifiers, content.itemIdentifiers) {
            snapshot.appendItems(items, toSection: section)
        }
        snapshot.reconfigureItems(update.reconfiguredItems)
        defaultRowAnimation = update.animation.uiKit
        apply(snapshot, animatingDifferences: update.animatesDifferences, completion: completion)
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
