import JSON
import TableModel

/// One section to export: its header and the rows of it to write, which may be
/// all of its rows or a view's choice of them.
public struct CSVExportSection<Rows: Collection & Sendable>: Sendable where Rows.Element == Row {
    public var header: String?
    public var rows: Rows

    public init(header: String?, rows: Rows) {
        self.header = header
        self.rows = rows
    }
}

extension CSVExportSection where Rows == RowList {
    /// Every section of `table` with all its rows.
    public static func all(of table: Table) -> [CSVExportSection<RowList>] {
        table.sections.map { CSVExportSection(header: $0.header, rows: $0.rows) }
    }
}

/// Rows as CSV (RFC 4180, UTF-8, CRLF line breaks), in pieces made one at a
/// time as they are asked for, so that a large table is never whole in memory
/// as text (docs/API.md, "CSV").
///
/// The columns of a table a file made (one with a `TableSource`) are that
/// file's, in its order and under its headers, each cell as it was read; the
/// columns of any other table are `section`, `id`, `text`, `detail`. Then come
/// the fields no column holds, one column per field name in the order the names
/// first appear. A cell holding a delimiter, a quote or a line break is quoted;
/// a cell a spreadsheet could run as a formula is written after an apostrophe
/// (``CSVCell``); numbers are written as they were given, other fields' values
/// that are not text (`true`, arrays, objects) as their JSON.
/// `webtableview import` reads it back to the same sections, ids, texts,
/// details and fields.
public struct CSVExport<Rows: Collection & Sendable>: Sequence, Sendable where Rows.Element == Row {
    public let sections: [CSVExportSection<Rows>]
    /// How a file made the table, when one did: its columns are the export's.
    public let source: TableSource?
    /// Rows written into one piece.
    public let rowsPerPiece: Int

    public init(sections: [CSVExportSection<Rows>], source: TableSource? = nil, rowsPerPiece: Int = 1000) {
        self.sections = sections
        self.source = source
        self.rowsPerPiece = Swift.max(1, rowsPerPiece)
    }

    /// The field names of the rows, in the order they first appear.
    public var fieldNames: [String] {
        var seen: Set<String> = []
        var names: [String] = []
        for section in sections {
            for row in section.rows {
                let fields = row.fields
                if fields.isEmpty { continue }
                for key in fields.keys where seen.insert(key).inserted { names.append(key) }
            }
        }
        return names
    }

    /// The export's columns: each one's header and what it holds.
    var layout: CSVLayout {
        var layout = CSVLayout()
        if let source {
            for (index, name) in source.columns.enumerated() {
                let field = source.fields.first { $0.column == index }
                let content: CSVLayout.Content? =
                    switch index {
                    case source.id: .id
                    case source.text: .text
                    case source.detail: .detail
                    case source.section: .section
                    default: field.map { .field($0.name) }
                    }
                if let content { layout.append(name, content) }
            }
        } else {
            for (name, content) in [
                ("section", CSVLayout.Content.section), ("id", .id), ("text", .text), ("detail", .detail),
            ] {
                layout.append(name, content)
            }
        }
        for name in fieldNames where layout.fieldColumns[name] == nil { layout.append(name, .field(name)) }
        return layout
    }

    /// Every piece joined: the whole CSV text.
    public var bytes: [UInt8] { reduce(into: []) { $0 += $1 } }

    public func makeIterator() -> Iterator { Iterator(export: self) }

    /// The header line first, then pieces of `rowsPerPiece` rows.
    public struct Iterator: IteratorProtocol {
        let export: CSVExport
        /// The columns; nil until the header is written.
        var layout: CSVLayout?
        var section = 0
        var position: Rows.Index?

        init(export: CSVExport) { self.export = export }

        public mutating func next() -> [UInt8]? {
            guard let layout else {
                let layout = export.layout
                self.layout = layout
                var line = CSVLine()
                for name in layout.headers { line.cell(name) }
                return line.end()
            }
            var line = CSVLine()
            var written = 0
            while section < export.sections.count && written < export.rowsPerPiece {
                let current = export.sections[section]
                var index = position ?? current.rows.startIndex
                while index != current.rows.endIndex && written < export.rowsPerPiece {
                    line.row(current.rows[index], header: current.header, layout: layout)
                    current.rows.formIndex(after: &index)
                    written += 1
                }
                if index == current.rows.endIndex {
                    section += 1
                    position = nil
                } else {
                    position = index
                }
            }
            return written == 0 ? nil : line.bytes
        }
    }
}

/// The columns of an export: each one's header and what it holds.
struct CSVLayout: Sendable {
    enum Content: Sendable {
        case section, id, text, detail
        case field(String)
    }

    private(set) var headers: [String] = []
    private(set) var contents: [Content] = []
    /// The column of each field name.
    private(set) var fieldColumns: [String: Int] = [:]

    mutating func append(_ header: String, _ content: Content) {
        if case .field(let name) = content { fieldColumns[name] = contents.count }
        headers.append(header)
        contents.append(content)
    }
}

/// CSV text being written, a cell at a time.
struct CSVLine {
    private(set) var bytes: [UInt8] = []
    private var atLineStart = true

    /// The row's field values by column, reused from row to row.
    private var values: [JSONValue?] = []

    /// One line: each column of `layout` for the row, in section `header`.
    mutating func row(_ row: Row, header: String?, layout: CSVLayout) {
        values.removeAll(keepingCapacity: true)
        values.append(contentsOf: repeatElement(nil, count: layout.contents.count))
        for member in row.fields.members {
            if let column = layout.fieldColumns[member.key] { values[column] = member.value }
        }
        for (index, content) in layout.contents.enumerated() {
            switch content {
            case .section: cell(header ?? "")
            case .id: cell(row.id ?? "")
            case .text: cell(row.text)
            case .detail: cell(row.detail ?? "")
            case .field: value(values[index])
            }
        }
        bytes += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        atLineStart = true
    }

    /// One field's cell: text as it is, numbers as written, anything else as its JSON.
    private mutating func value(_ value: JSONValue?) {
        switch value {
        case nil, .null: cell("")
        case .string(let text): cell(text)
        case .integer(let integer): cell(String(integer), guarded: false)
        case .number(let number): cell(number.literal, guarded: false)
        case .some(let value): cell(String(decoding: value.jsonBytes, as: UTF8.self))
        }
    }

    /// Ends the line and answers the text so far.
    mutating func end() -> [UInt8] {
        bytes += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        return bytes
    }

    /// One cell: after an apostrophe when it could run as a formula (unless it
    /// is a number), quoted when it holds a comma, a quote or a line break.
    mutating func cell(_ text: String, guarded: Bool = true) {
        if !atLineStart { bytes.append(UInt8(ascii: ",")) }
        atLineStart = false
        let text = guarded ? CSVCell.guarded(text) : text
        let needsQuotes = text.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }
        guard needsQuotes else {
            bytes += text.utf8
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
