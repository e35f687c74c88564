import TableModel

/// Which columns become the rows' `fields`.
public enum CSVFieldChoice: Sendable, Equatable {
    /// Every column not read for the text, detail, id or section.
    case remaining
    /// These columns, in this order.
    case columns([ColumnReference])
    /// None: rows without fields.
    case none
}

/// How a CSV file makes a table (docs/FORMAT.md, "From a CSV file"). A column
/// left nil takes the one named like the property, when the header has it.
public struct CSVImportOptions: Sendable, Equatable {
    /// The table's id; by default the file's name without its extension, cut to an id.
    public var tableID: String?
    public var title: String?
    /// The table's style.
    public var style: TableStyle
    /// The rows' `text`: by default the column `text`, or else the first column
    /// not read for the detail, id or section.
    public var text: ColumnReference?
    /// The rows' `detail`: by default the column `detail`, if any.
    public var detail: ColumnReference?
    /// The rows' `id`: by default the column `id`, if any.
    public var id: ColumnReference?
    /// Rows with the same value here make one section, headed by that value, in
    /// the order the values first appear: by default the column `section`, if any.
    public var section: ColumnReference?
    /// Rows are sorted by this column within their section (numbers as numbers,
    /// text ignoring case); without it they keep the file's order.
    public var sort: ColumnReference?
    /// The sort runs from the largest value to the smallest.
    public var sortDescending: Bool
    /// Sections sorted by their header, like rows, rather than in file order.
    public var sortSections: Bool
    /// Each section's `indexTitle`: the first letter of its header.
    public var indexTitles: Bool
    /// The columns that become the rows' `fields`.
    public var fields: CSVFieldChoice
    /// The byte between fields; nil finds it from the header row (``CSVDelimiter``).
    public var delimiter: UInt8?
    /// The file's encoding when it has no byte order mark.
    public var encoding: TextEncoding

    public init(
        tableID: String? = nil, title: String? = nil, style: TableStyle = .plain, text: ColumnReference? = nil,
        detail: ColumnReference? = nil, id: ColumnReference? = nil, section: ColumnReference? = nil,
        sort: ColumnReference? = nil,
        sortDescending: Bool = false, sortSections: Bool = false, indexTitles: Bool = false,
        fields: CSVFieldChoice = .remaining, delimiter: UInt8? = nil, encoding: TextEncoding = .utf8
    ) {
        self.tableID = tableID
        self.title = title
        self.style = style
        self.text = text
        self.detail = detail
        self.id = id
        self.section = section
        self.sort = sort
        self.sortDescending = sortDescending
        self.sortSections = sortSections
        self.indexTitles = indexTitles
        self.fields = fields
        self.delimiter = delimiter
        self.encoding = encoding
    }

    /// The options that make a table the way `source` says one was made, for
    /// the same file sent again (docs/API.md, "CSV"): a file with new columns
    /// makes them fields too when the fields were every other column.
    public mutating func remember(_ source: TableSource) {
        text = source.reference(to: source.text)
        detail = source.detail.map(source.reference(to:))
        id = source.id.map(source.reference(to:))
        section = source.section.map(source.reference(to:))
        sort = source.sort.map(source.reference(to:))
        sortDescending = source.sortDescending
        sortSections = source.sortSections
        indexTitles = source.indexTitles
        fields =
            source.fieldsAreTheOtherColumns
            ? .remaining
            : source.fields.isEmpty ? .none : .columns(source.fields.map { source.reference(to: $0.column) })
    }

    /// `--sort`'s value: a column, descending when written `-COLUMN`.
    public mutating func setSort(_ text: String) {
        sortDescending = text.hasPrefix("-") && text.count > 1
        sort = ColumnReference(sortDescending ? String(text.dropFirst()) : text)
    }

    /// `--fields a,b`: the columns named or numbered, comma-separated.
    public static func fieldColumns(_ text: String) -> CSVFieldChoice {
        .columns(text.split(separator: ",").map { ColumnReference(String($0)) })
    }
}
