/// How a table was made from a file of records — a CSV file, or a JSON array of
/// records — kept with the table so that the same file sent again makes the same
/// shape, and an export gives the file's columns back under their own names
/// (docs/FORMAT.md, "source").
///
/// Which column became what is held by position in `columns`; the document names
/// each by its header (or by its number from 1, where two columns share a header).
public struct TableSource: Sendable, Hashable {
    /// What kind of file made the table.
    public enum Format: String, Sendable, CaseIterable {
        /// A CSV (or TSV) file with a header row.
        case csv
        /// A JSON array of records (objects), each member a column.
        case json
    }

    /// One column that became one of the rows' `fields`.
    public struct Field: Sendable, Hashable {
        /// The column's position in `columns`.
        public var column: Int
        /// The field's name in the rows' `fields`.
        public var name: String

        public init(column: Int, name: String) {
            self.column = column
            self.name = name
        }
    }

    public var format: Format
    /// The file's columns, in its order: its header row, or its records' member
    /// names in the order they first appear.
    public var columns: [String]
    /// The column of the rows' `text`.
    public var text: Int
    /// The column of the rows' `detail`, if any.
    public var detail: Int?
    /// The column of the rows' `id`, if any.
    public var id: Int?
    /// The column whose values make the sections, if any.
    public var section: Int?
    /// The columns that became fields, in the rows' member order.
    public var fields: [Field]
    /// The column rows are sorted by within their section, if any.
    public var sort: Int?
    /// The sort runs from the largest value to the smallest.
    public var sortDescending: Bool
    /// Sections sorted by their header rather than in the order of first appearance.
    public var sortSections: Bool
    /// Each section's index title is the first letter of its header.
    public var indexTitles: Bool

    public init(
        format: Format, columns: [String], text: Int, detail: Int? = nil, id: Int? = nil, section: Int? = nil,
        fields: [Field] = [], sort: Int? = nil, sortDescending: Bool = false, sortSections: Bool = false,
        indexTitles: Bool = false
    ) {
        self.format = format
        self.columns = columns
        self.text = text
        self.detail = detail
        self.id = id
        self.section = section
        self.fields = fields
        self.sort = sort
        self.sortDescending = sortDescending
        self.sortSections = sortSections
        self.indexTitles = indexTitles
    }

    /// Whether the fields are every column not read for the text, detail, id or
    /// section, in the file's order: what an import makes by default, and what a
    /// file sent again with more columns keeps making.
    public var fieldsAreTheOtherColumns: Bool {
        let used = [text, detail, id, section]
        let others = columns.indices.filter { !used.contains($0) }
        return fields.map(\.column) == others
    }

    /// How the document names column `index`: its header, or its number from 1
    /// when another column has the same header.
    public func reference(to index: Int) -> ColumnReference {
        let name = columns[index]
        return columns.firstIndex(of: name) == index && columns.lastIndex(of: name) == index
            ? .named(name) : .number(index + 1)
    }

    /// The position of the column `reference` names, if the file has it.
    public static func position(of reference: ColumnReference, in columns: [String]) -> Int? {
        switch reference {
        case .named(let name): columns.firstIndex(of: name)
        case .number(let number): number >= 1 && number <= columns.count ? number - 1 : nil
        }
    }
}

/// A column of a file of records: by its name (the header row's, or the
/// records' member name), or by its number (1 for the first column).
public enum ColumnReference: Sendable, Hashable, CustomStringConvertible {
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
