import TableModel

/// A column of a CSV file: by its name in the header row, or by its number
/// (1 for the first column).
public enum CSVColumn: Sendable, Equatable, CustomStringConvertible {
    case named(String)
    case number(Int)

    /// `"3"` is the third column; anything else is a name.
    public init(_ text: String) {
        if let number = Int(text), number >= 1 {
            self = .number(number)
        } else {
            self = .named(text)
        }
    }

    public var description: String {
        switch self {
        case .named(let name): "\"\(name)\""
        case .number(let number): "\(number)"
        }
    }
}

/// Which columns become the rows' `fields`.
public enum CSVFieldChoice: Sendable, Equatable {
    /// Every column not read for the text, detail, id or section.
    case remaining
    /// These columns, in this order.
    case columns([CSVColumn])
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
    public var text: CSVColumn?
    /// The rows' `detail`: by default the column `detail`, if any.
    public var detail: CSVColumn?
    /// The rows' `id`: by default the column `id`, if any.
    public var id: CSVColumn?
    /// Rows with the same value here make one section, headed by that value, in
    /// the order the values first appear: by default the column `section`, if any.
    public var section: CSVColumn?
    /// Rows are sorted by this column within their section (numbers as numbers,
    /// text ignoring case); without it they keep the file's order.
    public var sort: CSVColumn?
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

    public init(
        tableID: String? = nil, title: String? = nil, style: TableStyle = .plain, text: CSVColumn? = nil,
        detail: CSVColumn? = nil, id: CSVColumn? = nil, section: CSVColumn? = nil, sort: CSVColumn? = nil,
        sortDescending: Bool = false, sortSections: Bool = false, indexTitles: Bool = false,
        fields: CSVFieldChoice = .remaining, delimiter: UInt8? = nil
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
    }

    /// `--sort`'s value: a column, descending when written `-COLUMN`.
    public mutating func setSort(_ text: String) {
        sortDescending = text.hasPrefix("-") && text.count > 1
        sort = CSVColumn(sortDescending ? String(text.dropFirst()) : text)
    }

    /// `--fields a,b`: the columns named or numbered, comma-separated.
    public static func fieldColumns(_ text: String) -> CSVFieldChoice {
        .columns(text.split(separator: ",").map { CSVColumn(String($0)) })
    }
}
