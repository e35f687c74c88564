import Foundation
import TableModel

/// The rows of a CSV file as they are read, checked one by one, then grouped
/// into sections and sorted into a table.
struct TableBuilder {
    let header: [String]
    let limits: ModelLimits
    let text: Int
    let detail: Int?
    let id: Int?
    let section: Int?
    let sort: Int?
    let sortSections: Bool
    private var rows: [(row: Row, section: String?, key: String)] = []
    private var problems: [CSVImportError.Problem] = []
    /// The line of each row id seen so far.
    private var idLines: [String: Int] = [:]

    init(header: [String], options: CSVImportOptions, limits: ModelLimits) throws(CSVImportError) {
        self.header = header
        self.limits = limits
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
        text = column(options.text, default: "text") ?? 0
        detail = column(options.detail, default: "detail")
        id = column(options.id, default: "id")
        section = column(options.section, default: "section")
        sort = options.sort.flatMap { column($0, default: "") }
        sortSections = options.sortSections
        guard problems.isEmpty else { throw CSVImportError(problems: problems) }
    }

    /// Checks and keeps one record of the file, which begins on `line`.
    mutating func add(_ fields: [String], line: Int) {
        guard fields.count == header.count else {
            problems.append(.init(line: line, "\(fields.count) \(fields.count == 1 ? "field" : "fields"), but the header has \(header.count)"))
            return
        }
        for (index, field) in fields.enumerated() where field.utf8.count > limits.maxFieldBytes {
            problems.append(.init(line: line, "column \"\(header[index])\" holds \(field.utf8.count) bytes; the limit is \(limits.maxFieldBytes)"))
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
                return
            }
            idLines[value] = line
            row.id = value
        }
        rows.append((row, section.map { fields[$0] }, sort.map { fields[$0] } ?? ""))
    }

    /// The table, or every problem found in the file.
    func table(id: String, title: String?) throws(CSVImportError) -> Table {
        var problems = problems
        if !limits.isIdentifier(id) {
            problems.append(.init(line: nil, "the table id \"\(id)\" must match [A-Za-z0-9_-]{1,\(limits.maxIDLength)}; give one with --table-id"))
        }
        guard problems.isEmpty else { throw CSVImportError(problems: problems) }
        // Sections in the order their value first appears; rows in file order within each.
        var order: [String?] = []
        var grouped: [String?: [(row: Row, key: String)]] = [:]
        for entry in rows {
            if grouped[entry.section] == nil { order.append(entry.section) }
            grouped[entry.section, default: []].append((entry.row, entry.key))
        }
        let numeric = sort != nil && rows.allSatisfy { $0.key.isEmpty || Double($0.key) != nil }
        if sortSections {
            order.sort { Self.precedes($0 ?? "", $1 ?? "", numeric: false) }
        }
        let sections = order.map { name -> Section in
            var entries = grouped[name] ?? []
            if sort != nil {
                entries = Self.stableSorted(entries) { Self.precedes($0.key, $1.key, numeric: numeric) }
            }
            return Section(header: name, rows: entries.map(\.row))
        }
        return Table(id: id, title: title, sections: sections)
    }

    /// Numbers by value when every key is one (empty ones first), text
    /// ignoring case with digits compared as numbers ("item 2" before "item 10").
    static func precedes(_ first: String, _ second: String, numeric: Bool) -> Bool {
        if numeric { return (Double(first) ?? -.infinity) < (Double(second) ?? -.infinity) }
        return first.compare(second, options: [.caseInsensitive, .numeric]) == .orderedAscending
    }

    static func stableSorted<Element>(_ elements: [Element], by precedes: (Element, Element) -> Bool) -> [Element] {
        elements.enumerated().sorted { precedes($0.element, $1.element) || (!precedes($1.element, $0.element) && $0.offset < $1.offset) }
            .map(\.element)
    }
}
