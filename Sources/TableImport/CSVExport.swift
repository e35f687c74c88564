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
/// The columns are `section`, `id`, `text`, `detail`, then one per field name
/// in the order the names first appear. A cell holding a delimiter, a quote or
/// a line break is quoted; a cell a spreadsheet could run as a formula is
/// written after an apostrophe (``CSVCell``); numbers are written as JSON
/// writes them, other fields' values that are not text (`true`, arrays,
/// objects) as their JSON. `webtableview import` reads it back to the same
/// sections, ids, texts, details and fields.
public struct CSVExport<Rows: Collection & Sendable>: Sequence, Sendable where Rows.Element == Row {
    public let sections: [CSVExportSection<Rows>]
    /// Rows written into one piece.
    public let rowsPerPiece: Int

    public init(sections: [CSVExportSection<Rows>], rowsPerPiece: Int = 1000) {
        self.sections = sections
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

    /// Every piece joined: the whole CSV text.
    public var bytes: [UInt8] { reduce(into: []) { $0 += $1 } }

    public func makeIterator() -> Iterator { Iterator(export: self) }

    /// The header line first, then pieces of `rowsPerPiece` rows.
    public struct Iterator: IteratorProtocol {
        let export: CSVExport
        /// Each field name's column after `detail`; nil until the header is written.
        var columns: [String: Int]?
        var section = 0
        var position: Rows.Index?

        init(export: CSVExport) { self.export = export }

        public mutating func next() -> [UInt8]? {
            guard let columns else {
                let names = export.fieldNames
                columns = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
                var line = CSVLine()
                for name in ["section", "id", "text", "detail"] + names { line.cell(name) }
                return line.end()
            }
            var line = CSVLine()
            var written = 0
            while section < export.sections.count && written < export.rowsPerPiece {
                let current = export.sections[section]
                var index = position ?? current.rows.startIndex
                while index != current.rows.endIndex && written < export.rowsPerPiece {
                    line.row(current.rows[index], header: current.header, columns: columns)
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

/// CSV text being written, a cell at a time.
struct CSVLine {
    private(set) var bytes: [UInt8] = []
    private var atLineStart = true

    /// The row's fields by column, reused from row to row.
    private var values: [JSONValue?] = []

    /// One line: the row's section header, id, text, detail, then its fields
    /// in `columns` (a field name's place after `detail`).
    mutating func row(_ row: Row, header: String?, columns: [String: Int]) {
        cell(header ?? "")
        cell(row.id ?? "")
        cell(row.text)
        cell(row.detail ?? "")
        values.removeAll(keepingCapacity: true)
        values.append(contentsOf: repeatElement(nil, count: columns.count))
        for member in row.fields.members {
            if let column = columns[member.key] { values[column] = member.value }
        }
        for index in values.indices {
            switch values[index] {
            case nil, .null: cell("")
            case .string(let text): cell(text)
            case .integer(let integer): cell(String(integer), guarded: false)
            case .some(let value):
                var writer = JSONWriter()
                writer.value(value)
                cell(String(decoding: writer.takeBytes(), as: UTF8.self), guarded: !value.isNumber)
            }
        }
        bytes += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        atLineStart = true
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

extension JSONValue {
    fileprivate var isNumber: Bool {
        switch self {
        case .integer, .double: true
        default: false
        }
    }
}
