/// One section of a table: an optional header and footer around an ordered list of rows.
public struct Section: Sendable, Equatable {
    /// Optional; unique within the table when given.
    public var id: String?
    /// `titleForHeaderInSection`.
    public var header: String?
    /// `titleForFooterInSection`.
    public var footer: String?
    /// The section's entry in the section index strip (`sectionIndexTitles`).
    public var indexTitle: String?
    /// The rows, in an order-statistic tree: O(log n) to insert, delete or find by position.
    public var rows: RowList

    public init(
        id: String? = nil,
        header: String? = nil,
        footer: String? = nil,
        indexTitle: String? = nil,
        rows: RowList = RowList()
    ) {
        self.id = id
        self.header = header
        self.footer = footer
        self.indexTitle = indexTitle
        self.rows = rows
    }

    public init(
        id: String? = nil,
        header: String? = nil,
        footer: String? = nil,
        indexTitle: String? = nil,
        rows: [Row]
    ) {
        self.init(id: id, header: header, footer: footer, indexTitle: indexTitle, rows: RowList(rows))
    }
}
