import Foundation
import JSON
import TableModel

/// The records of a file — a CSV file's, or a JSON array's — as they are read,
/// checked one by one, then grouped into sections and sorted into a table that
/// remembers how it was made (its `TableSource`).
///
/// Linear in the file: every column is looked at a bounded number of times per
/// record, and a header over `limits.maxColumns` is refused before any work.
struct TableBuilder {
    let header: [String]
    let format: TableSource.Format
    let limits: ModelLimits
    let options: CSVImportOptions
    let text: Int
    let detail: Int?
    let id: Int?
    let section: Int?
    let sort: Int?
    /// The columns that become `fields`, with the field name of each.
    let fieldColumns: [(column: Int, name: String)]
    private var rows: [Entry] = []
    private var problems: [CSVImportError.Problem] = []
    /// Where each row id was seen first.
    private var idPlaces: [String: Place] = [:]
    /// Rows whose id was already another's.
    private var duplicates = 0

    /// Where in the file a record is: a CSV file's line, or a JSON array's index.
    enum Place: Sendable {
        case line(Int)
        case record(Int)

        func problem(_ message: String) -> CSVImportError.Problem {
            switch self {
            case .line(let line): CSVImportError.Problem(line: line, message)
            case .record(let index): CSVImportError.Problem(path: "$[\(index)]", message)
            }
        }

        /// `line 3`, `$[2]`: how a message names the place of another record.
        var name: String {
            switch self {
            case .line(let line): "line \(line)"
            case .record(let index): "$[\(index)]"
            }
        }
    }

    /// One cell: a CSV file's text, or a JSON record's value (kept as typed).
    enum Cell {
        case text(String)
        case value(JSONValue)

        /// The cell as the text of a row's text, detail, id or section: a
        /// number as written, `true`/`false`; nothing (empty) for null, an
        /// array or an object.
        var text: String {
            switch self {
            case .text(let text): text
            case .value(.string(let text)): text
            case .value(.integer(let integer)): String(integer)
            case .value(.number(let number)): number.literal
            case .value(.bool(let flag)): flag ? "true" : "false"
            case .value: ""
            }
        }
    }

    /// A row read, before it has its fields and its place.
    private struct Entry {
        var row: Row
        var section: String?
        var key: String
        /// The cells of `fieldColumns`, in their order.
        var cells: [Cell]
    }

    init(header cells: [String], format: TableSource.Format = .csv, options: CSVImportOptions, limits: ModelLimits)
        throws(CSVImportError)
    {
        guard cells.count <= limits.maxColumns else {
            throw CSVImportError(problems: [
                .init(line: nil, "\(cells.count) columns; a file holds at most \(limits.maxColumns)")
            ])
        }
        let header = format == .csv ? cells.map(CSVCell.unguarded) : cells
        self.header = header
        self.format = format
        self.limits = limits
        self.options = options
        var problems: [CSVImportError.Problem] = []
        func column(_ choice: ColumnReference?, default name: String) -> Int? {
            guard let choice else { return header.firstIndex(of: name) }
            switch choice {
            case .named(let wanted):
                if let index = header.firstIndex(of: wanted) { return index }
                let names = header.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ")
                let more = header.count > 20 ? " and \(header.count - 20) more" : ""
                problems.append(.init(line: nil, "no column named \"\(wanted)\"; the header names \(names)\(more)"))
            case .number(let number):
                if number <= header.count { return number - 1 }
                problems.append(.init(line: nil, "no column \(number): the header has \(header.count)"))
            }
            return nil
        }
        let named = column(options.text, default: "text")
        detail = column(options.detail, default: "detail")
        id = column(options.id, default: "id")
        section = column(options.section, default: "section")
        // Without a column `text`: the first column not read for something else.
        text = named ?? header.indices.first { [detail, id, section] in ![detail, id, section].contains($0) } ?? 0
        sort = options.sort.flatMap { column($0, default: "") }
        let chosen: [Int] =
            switch options.fields {
            case .none: []
            case .columns(let columns): columns.compactMap { column($0, default: "") }
            case .remaining:
                header.indices.filter { [used = [text, detail, id, section]] in !used.contains($0) }
            }
        fieldColumns = Self.fieldNames(chosen.map { header[$0] }).enumerated().map { (chosen[$0.offset], $0.element) }
        if fieldColumns.count > limits.maxCustomFields {
            problems.append(
                .init(
                    line: nil,
                    "\(fieldColumns.count) columns would be fields; a row holds at most \(limits.maxCustomFields) (choose some with --fields, or --no-fields)"
                ))
        }
        guard problems.isEmpty else { throw CSVImportError(problems: problems) }
    }

    /// Field names for columns headed `names`: each character outside
    /// `[A-Za-z0-9_-]` made `_`, cut to 64, `column` for an empty one, and a
    /// name met before numbered (`name_2`).
    ///
    /// Linear: each base name remembers the next number to try, so `n` equal
    /// headers cost O(n) tries in all, not O(n²) (issue of a 40 kB header of
    /// commas, docs/RELIABILITY.md, "Bounded work").
    static func fieldNames(_ names: [String]) -> [String] {
        var used: Set<String> = []
        var nextNumber: [String: Int] = [:]
        return names.map { name in
            let base = name.isEmpty ? "column" : CSVImport.identifier(name[...], replacement: "_")
            var candidate = base
            var number = nextNumber[base] ?? 2
            while used.contains(candidate) {
                let suffix = "_\(number)"
                candidate = String(base.prefix(64 - suffix.count)) + suffix
                number += 1
            }
            nextNumber[base] = number
            used.insert(candidate)
            return candidate
        }
    }

    /// Checks and keeps one record of a CSV file, which begins on `line`.
    mutating func add(_ cells: [String], line: Int) {
        guard cells.count == header.count else {
            problems.append(
                .init(
                    line: line,
                    "\(cells.count) \(cells.count == 1 ? "field" : "fields"), but the header has \(header.count)"))
            return
        }
        add(cells.map { .text(CSVCell.unguarded($0)) }, at: .line(line))
    }

    /// Checks and keeps one record, its cells in the header's order.
    mutating func add(_ cells: [Cell], at place: Place) {
        let texts = cells.map(\.text)
        for (index, cell) in cells.enumerated() {
            let size =
                switch cell {
                case .text(let text): text.utf8.count
                case .value(let value): value.jsonBytes.count
                }
            if size > limits.maxFieldBytes {
                problems.append(
                    place.problem(
                        "column \"\(header[index])\" holds \(size) bytes; the limit is \(limits.maxFieldBytes)"))
                return
            }
        }
        var row = Row(text: texts[text])
        if let detail, !texts[detail].isEmpty {
            row.detail = texts[detail]
            row.style = .subtitle
        }
        if let id, !texts[id].isEmpty {
            let value = texts[id]
            if !limits.isIdentifier(value) {
                problems.append(place.problem("id \"\(value)\" must match [A-Za-z0-9_-]{1,\(limits.maxIDLength)}"))
                return
            }
            if let first = idPlaces[value] {
                problems.append(place.problem("id \"\(value)\" is already the id of \(first.name)"))
                duplicates += 1
                return
            }
            idPlaces[value] = place
            row.id = value
        }
        let sectionValue = section.map { texts[$0] }
        rows.append(
            Entry(
                row: row, section: sectionValue.flatMap { $0.isEmpty ? nil : $0 }, key: sort.map { texts[$0] } ?? "",
                cells: fieldColumns.map { cells[$0.column] }))
    }

    /// How the file made the table: its columns and what each became.
    var source: TableSource {
        TableSource(
            format: format, columns: header, text: text, detail: detail, id: id, section: section,
            fields: fieldColumns.map { TableSource.Field(column: $0.column, name: $0.name) }, sort: sort,
            sortDescending: options.sortDescending, sortSections: options.sortSections,
            indexTitles: options.indexTitles)
    }

    /// The table, or every problem found in the file, those `readingProblems` the reader met first.
    func table(id: String, title: String?, readingProblems: [CSVImportError.Problem] = []) throws(CSVImportError)
        -> Table
    {
        var problems = (readingProblems + problems).sorted { ($0.line ?? 0) < ($1.line ?? 0) }
        // Many repeated ids are a column of something else: said first, before the lines.
        if duplicates > CSVImportError.reportedProblems {
            let column = header[self.id ?? 0]
            problems.insert(
                .init(
                    line: nil,
                    "\(duplicates) rows repeat the id of an earlier row: is \"\(column)\" a column of unique ids? (choose another with --id)"
                ), at: 0)
        }
        if !limits.isIdentifier(id) {
            problems.append(
                .init(
                    line: nil,
                    "the table id \"\(id)\" must match [A-Za-z0-9_-]{1,\(limits.maxIDLength)}; give one with --table-id"
                ))
        }
        guard problems.isEmpty else { throw CSVImportError(problems: problems) }
        let numericFields = fieldColumns.indices.map { column in
            rows.allSatisfy { entry in
                guard case .text(let text) = entry.cells[column] else { return true }
                return text.isEmpty || JSONValue.number(literal: text) != nil
            }
        }
        // Sections in the order their value first appears; rows in file order within each.
        var order: [String?] = []
        var grouped: [String?: [(row: Row, key: String)]] = [:]
        for entry in rows {
            var row = entry.row
            row.fields = fields(of: entry, numeric: numericFields)
            if grouped[entry.section] == nil { order.append(entry.section) }
            grouped[entry.section, default: []].append((row, entry.key))
        }
        let numeric = sort != nil && rows.allSatisfy { $0.key.isEmpty || Double($0.key) != nil }
        if options.sortSections {
            order.sort { Self.precedes($0 ?? "", $1 ?? "", numeric: false) }
        }
        let descending = options.sortDescending
        let sections = order.map { name -> Section in
            var entries = grouped[name] ?? []
            if sort != nil {
                entries = Self.stableSorted(entries) {
                    descending
                        ? Self.precedes($1.key, $0.key, numeric: numeric)
                        : Self.precedes($0.key, $1.key, numeric: numeric)
                }
            }
            let indexTitle = options.indexTitles ? name?.first.map { String($0).uppercased() } : nil
            return Section(header: name, indexTitle: indexTitle, rows: entries.map(\.row))
        }
        return Table(id: id, title: title, style: options.style, source: source, sections: sections)
    }

    /// The row's fields: a CSV file's non-empty cells, numbers as numbers in a
    /// column of numbers; a JSON record's values as they are, but `null`.
    private func fields(of entry: Entry, numeric: [Bool]) -> JSONObject {
        var members: [JSONMember] = []
        for (index, cell) in entry.cells.enumerated() {
            let value: JSONValue
            switch cell {
            case .text(let text) where text.isEmpty: continue
            case .text(let text):
                value = numeric[index] ? JSONValue.number(literal: text) ?? .string(text) : .string(text)
            case .value(.null): continue
            case .value(let typed): value = typed
            }
            members.append(JSONMember(fieldColumns[index].name, value))
        }
        return JSONObject(members)
    }

    /// Numbers by value when every key is one (empty ones first), text
    /// ignoring case with digits compared as numbers ("item 2" before "item 10").
    static func precedes(_ first: String, _ second: String, numeric: Bool) -> Bool {
        if numeric { return (Double(first) ?? -.infinity) < (Double(second) ?? -.infinity) }
        return first.compare(second, options: [.caseInsensitive, .numeric]) == .orderedAscending
    }

    static func stableSorted<Element>(_ elements: [Element], by precedes: (Element, Element) -> Bool) -> [Element] {
        elements.enumerated().sorted {
            precedes($0.element, $1.element) || (!precedes($1.element, $0.element) && $0.offset < $1.offset)
        }
        .map(\.element)
    }
}

extension Row {
    /// This row, made from a file, with what a file does not carry taken from
    /// `old`, the row of the same id before (docs/API.md, "CSV"): its style
    /// (unless the row gains or loses its detail), image, accessory, editing,
    /// selection, indentation, height, template and links.
    public func keepingWhatFilesDoNotCarry(from old: Row) -> Row {
        var row = old
        row.text = text
        row.detail = detail
        row.fields = fields
        if (old.detail == nil) != (detail == nil) { row.style = style }
        return row
    }
}
