import Foundation
import JSON
import TableModel

/// The rows of a CSV file as they are read, checked one by one, then grouped
/// into sections and sorted into a table.
struct TableBuilder {
    let header: [String]
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
    /// The line of each row id seen so far.
    private var idLines: [String: Int] = [:]
    /// Rows whose id was already another's.
    private var duplicates = 0

    /// A row read, before it has its fields and its place.
    private struct Entry {
        var row: Row
        var section: String?
        var key: String
        /// The cells of `fieldColumns`, in their order.
        var cells: [String]
    }

    init(header cells: [String], options: CSVImportOptions, limits: ModelLimits) throws(CSVImportError) {
        let header = cells.map(CSVCell.unguarded)
        self.header = header
        self.limits = limits
        self.options = options
        var problems: [CSVImportError.Problem] = []
        func column(_ choice: CSVColumn?, default name: String) -> Int? {
            guard let choice else { return header.firstIndex(of: name) }
            switch choice {
            case .named(let wanted):
                if let index = header.firstIndex(of: wanted) { return index }
                let names = header.map { "\"\($0)\"" }.joined(separator: ", ")
                problems.append(.init(line: nil, "no column named \"\(wanted)\"; the header names \(names)"))
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
    static func fieldNames(_ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.map { name in
            let base = name.isEmpty ? "column" : CSVImport.identifier(name[...], replacement: "_")
            var candidate = base
            var number = 2
            while used.contains(candidate) {
                let suffix = "_\(number)"
                candidate = String(base.prefix(64 - suffix.count)) + suffix
                number += 1
            }
            used.insert(candidate)
            return candidate
        }
    }

    /// Checks and keeps one record of the file, which begins on `line`.
    mutating func add(_ cells: [String], line: Int) {
        guard cells.count == header.count else {
            problems.append(
                .init(
                    line: line,
                    "\(cells.count) \(cells.count == 1 ? "field" : "fields"), but the header has \(header.count)"))
            return
        }
        let fields = cells.map(CSVCell.unguarded)
        for (index, field) in fields.enumerated() where field.utf8.count > limits.maxFieldBytes {
            problems.append(
                .init(
                    line: line,
                    "column \"\(header[index])\" holds \(field.utf8.count) bytes; the limit is \(limits.maxFieldBytes)")
            )
            return
        }
        var row = Row(text: fields[text])
        if let detail, !fields[detail].isEmpty {
            row.detail = fields[detail]
            row.style = .subtitle
        }
        if let id, !fields[id].isEmpty {
            let value = fields[id]
            if !limits.isIdentifier(value) {
                problems.append(.init(line: line, "id \"\(value)\" must match [A-Za-z0-9_-]{1,\(limits.maxIDLength)}"))
                return
            }
            if let first = idLines[value] {
                problems.append(.init(line: line, "id \"\(value)\" is already the id of line \(first)"))
                duplicates += 1
                return
            }
            idLines[value] = line
            row.id = value
        }
        let sectionValue = section.map { fields[$0] }
        rows.append(
            Entry(
                row: row, section: sectionValue.flatMap { $0.isEmpty ? nil : $0 }, key: sort.map { fields[$0] } ?? "",
                cells: fieldColumns.map { fields[$0.column] }))
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
            rows.allSatisfy { $0.cells[column].isEmpty || Self.number($0.cells[column]) != nil }
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
        return Table(id: id, title: title, style: options.style, sections: sections)
    }

    /// The row's fields: its non-empty cells, numbers as numbers in a column of numbers.
    private func fields(of entry: Entry, numeric: [Bool]) -> JSONObject {
        var members: [JSONMember] = []
        for (index, cell) in entry.cells.enumerated() where !cell.isEmpty {
            let value = numeric[index] ? Self.number(cell) ?? .string(cell) : .string(cell)
            members.append(JSONMember(fieldColumns[index].name, value))
        }
        return JSONObject(members)
    }

    /// The number `cell` writes as JSON does (`-12`, `3.5`, `1e6`; not `007`,
    /// `+1` or `NaN`): an integer when it is a whole number, as the model keeps them.
    static func number(_ cell: String) -> JSONValue? {
        guard isJSONNumber(cell.utf8), let double = Double(cell), double.isFinite else { return nil }
        if let integer = Int(cell) { return .integer(integer) }
        if double.rounded(.towardZero) == double && double.magnitude < 0x1p53 { return .integer(Int(double)) }
        return .double(double)
    }

    /// RFC 8259's number: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ text: String.UTF8View) -> Bool {
        var bytes = text[...]
        func digits() -> Int {
            let count = bytes.prefix { isASCIIDigit($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

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
