import Synchronization
import TableModel

/// The page's document up to its first section and after its last (``PagePieces``),
/// kept by what they are drawn from, so that a page drawn again for an unchanged
/// table renders `table.mustache` and `page.mustache` no more: a tenth of the
/// 1,000-row page's CPU went to rendering them for every request (docs/perf-history/reads-and-pages.md).
///
/// The key holds everything the table template sees besides the sections it
/// draws at the marker (`TableContext`): a template that draws its sections some
/// other way is never kept (see ``TableRenderer/pagePieces(_:style:view:rowLimit:pageRowLimit:)``).
/// At most `capacity` pages are kept; when full, the next one to keep empties it.
final class PageHeads: Sendable {
    /// What the head and tail of a table's page are drawn from.
    struct Key: Hashable {
        let id: String
        let title: String?
        let style: TableStyle
        let version: Int
        let header: String?
        let footer: String?
        let allowsSelection: Bool
        let allowsMultipleSelection: Bool
        /// The sections' index titles, for the index strip of a plain table.
        let indexTitles: [String?]
        /// The view shown and the style picked by the URL (the search bar's fields).
        let page: PageView
        /// Whether the view shows no row (the search bar's "No Results").
        let isEmpty: Bool
        /// Whether the page is the read-only one (``PageSession/canEdit``).
        let readOnly: Bool

        init(_ table: Table, style: TableStyle, page: PageView = PageView(), readOnly: Bool = false) {
            id = table.id
            title = table.title
            self.style = style
            version = table.version
            header = table.header
            footer = table.footer
            allowsSelection = table.allowsSelection
            allowsMultipleSelection = table.allowsMultipleSelection
            indexTitles = style == .plain ? table.sections.map(\.indexTitle) : []
            self.page = page
            isEmpty = page.view != nil && table.rowCount == 0
            self.readOnly = readOnly
        }
    }

    private let pages = Mutex<[Key: (head: [UInt8], tail: [UInt8])]>([:])
    private let capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
    }

    func page(for key: Key) -> (head: [UInt8], tail: [UInt8])? {
        pages.withLock { $0[key] }
    }

    func keep(head: [UInt8], tail: [UInt8], for key: Key) {
        pages.withLock { pages in
            if pages.count >= capacity { pages.removeAll() }
            pages[key] = (head, tail)
        }
    }
}
