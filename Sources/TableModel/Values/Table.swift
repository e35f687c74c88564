import JSON

/// A table view's whole data source: its properties and its sections of rows.
///
/// A value: copying a table is O(1) (its row storage is shared copy-on-write), so a
/// reader can take a consistent snapshot and render it while writers go on.
public struct Table: Sendable, Equatable {
    /// `[A-Za-z0-9_-]{1,64}`, unique on the server.
    public var id: String
    public var title: String?
    public var style: TableStyle
    /// `tableHeaderView`, as text.
    public var header: String?
    /// `tableFooterView`, as text.
    public var footer: String?
    /// Default row height in CSS pixels; a row may override it.
    public var rowHeight: Double
    public var allowsSelection: Bool
    public var allowsMultipleSelection: Bool
    /// The view a page shows when its URL names neither `sort` nor `group`:
    /// `sort` and `group` only (docs/FORMAT.md, "Table"); nil for the table's order.
    public var defaultView: TableQuery?
    /// How a file of records made the table, when one did (docs/FORMAT.md, "source").
    public var source: TableSource?
    /// Who may read, edit and administer the table besides the server's
    /// policy (docs/FORMAT.md, "Access policy"), as the document gave it: the server
    /// reads its rules; nil for none. Shown to the table's admins only, and
    /// written by `writeJSON` only when asked (`withAccess`).
    public var access: JSONObject?
    /// +1 for every applied change; output only.
    public var version: Int
    /// The sections. Changed only through batches (`Table.apply(_:)`), so that the
    /// id index below stays true.
    public internal(set) var sections: [Section]
    /// Ids of every section and row that has one: keeps id checks O(1) per
    /// edited item. Nil for a live view's table until a batch from outside is
    /// applied to it (`apply(_:)`): a view's own batches need no id check
    /// (`applyDerived`), and building it was a third of opening a view
    /// (docs/ARCHITECTURE.md, "Views").
    var idIndex: TableIDIndex?

    /// Ids of every section and row that has one: the index kept, or one
    /// collected from the sections, O(n), for a view that keeps none.
    public var ids: TableIDIndex { idIndex ?? TableIDIndex(sections) }

    public init(
        id: String,
        title: String? = nil,
        style: TableStyle = .plain,
        header: String? = nil,
        footer: String? = nil,
        rowHeight: Double = 44,
        allowsSelection: Bool = true,
        allowsMultipleSelection: Bool = false,
        defaultView: TableQuery? = nil,
        source: TableSource? = nil,
        access: JSONObject? = nil,
        version: Int = 0,
        sections: [Section] = []
    ) {
        self.id = id
        self.title = title
        self.style = style
        self.header = header
        self.footer = footer
        self.rowHeight = rowHeight
        self.allowsSelection = allowsSelection
        self.allowsMultipleSelection = allowsMultipleSelection
        self.defaultView = defaultView
        self.source = source
        self.access = access
        self.version = version
        self.sections = sections
        self.idIndex = TableIDIndex(sections)
    }

    /// Equal tables have equal properties, versions and sections; the id
    /// index is what the sections hold, kept or not.
    public static func == (lhs: Table, rhs: Table) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title && lhs.style == rhs.style && lhs.header == rhs.header
            && lhs.footer == rhs.footer && lhs.rowHeight == rhs.rowHeight && lhs.allowsSelection == rhs.allowsSelection
            && lhs.allowsMultipleSelection == rhs.allowsMultipleSelection && lhs.defaultView == rhs.defaultView
            && lhs.source == rhs.source && lhs.access == rhs.access && lhs.version == rhs.version
            && lhs.sections == rhs.sections
    }

    /// Number of rows in all sections.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

    /// The row at an index path, or nil when there is none.
    public func row(at indexPath: TableIndexPath) -> Row? {
        guard sections.indices.contains(indexPath.section) else { return nil }
        let rows = sections[indexPath.section].rows
        guard indexPath.row >= 0, indexPath.row < rows.count else { return nil }
        return rows[indexPath.row]
    }
}
