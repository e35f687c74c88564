import JSON

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
    /// A view's group section only: the group's value as its first row holds
    /// it (a number stays a number), which `header` spells (docs/API.md,
    /// "Views"); nil for every section of a table.
    public var groupValue: JSONValue?

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

extension Section {
    /// A number group's value as written (`"8336817"`), which its header
    /// spells and a page formats for the reader; nil for any other section.
    public var groupNumber: String? {
        switch groupValue {
        case .integer(let number)?: String(number)
        case .number(let number)?: number.literal
        default: nil
        }
    }
}
