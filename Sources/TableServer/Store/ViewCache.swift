import Synchronization
import TableModel

/// The views of one table read lately, by their one spelling, so that the pages
/// of a view (`…/rows?offset=`, the page's scrolling fragments) derive it once
/// per version of the table rather than once per page (O(n) each).
///
/// Its own lock, not the table's: a read derives a view outside both, and
/// only looks up or keeps the result under this one. A view is kept with the
/// version it was derived at and used only for that version. At most
/// `capacity` views of `rowCapacity` rows in all (a view's rows are its own
/// tree: 48 bytes a row and what the rows' strings share); keeping one more
/// starts the cache afresh, and a view larger than that is not kept.
final class ViewCache: Sendable {
    let capacity: Int
    let rowCapacity: Int
    private let views = Mutex<[String: Table]>([:])

    init(capacity: Int = 16, rowCapacity: Int = 1_000_000) {
        self.capacity = capacity
        self.rowCapacity = rowCapacity
    }

    /// Whether the view `query` of the table at `version` is kept.
    func holds(_ query: TableQuery, at version: Int) -> Bool {
        views.withLock { $0[query.canonicalQuery]?.version == version }
    }

    /// The view `query` of `table`: kept, or derived now and kept.
    func view(_ query: TableQuery, of table: Table) -> Table {
        let key = query.canonicalQuery
        if let kept = views.withLock({ $0[key] }), kept.version == table.version {
            return kept
        }
        let view = query.view(of: table)
        let rows = view.rowCount
        guard rows <= rowCapacity else { return view }
        views.withLock { views in
            guard (views[key]?.version ?? -1) <= view.version else { return }
            views[key] = nil
            let kept = views.values.reduce(0) { $0 + $1.rowCount }
            if views.count >= capacity || kept + rows > rowCapacity { views.removeAll() }
            views[key] = view
        }
        return view
    }
}
