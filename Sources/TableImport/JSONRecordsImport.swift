import JSON
import TableModel

extension CSVImport {
    /// The table a JSON array of records makes (`[{"name": …}, …]`, as
    /// json-server and Datasette take them), with the same options and mapping
    /// as a CSV file: each member name is a column, in the order the names first
    /// appear; values keep their JSON types (a number as written, `"007"` as
    /// text), and a missing member or `null` is an empty cell (docs/FORMAT.md,
    /// "From a JSON array of records"). Problems are reported with the record's
    /// JSON path (`$[3]`).
    public static func table(
        records value: JSONValue, name: String, options: CSVImportOptions = CSVImportOptions(),
        limits: ModelLimits = .default
    ) throws(CSVImportError) -> Table {
        guard case .array(let records) = value else {
            throw CSVImportError(problems: [
                .init(line: nil, "expected an array of records, found \(value.kindDescription)")
            ])
        }
        var problems: [CSVImportError.Problem] = []
        var columns: [String] = []
        var positions: [String: Int] = [:]
        for (index, record) in records.enumerated() {
            guard case .object(let object) = record else {
                problems.append(
                    .init(path: "$[\(index)]", "expected a record (an object), found \(record.kindDescription)"))
                continue
            }
            for member in object.members where positions[member.key] == nil {
                guard columns.count < limits.maxColumns else {
                    throw CSVImportError(problems: [
                        .init(
                            line: nil,
                            "more than \(limits.maxColumns) columns; a file holds at most \(limits.maxColumns)")
                    ])
                }
                positions[member.key] = columns.count
                columns.append(member.key)
            }
        }
        guard !columns.isEmpty else {
            problems.append(.init(line: nil, "no records: the array holds no object with a member"))
            throw CSVImportError(problems: problems)
        }
        var builder = try TableBuilder(header: columns, format: .json, options: options, limits: limits)
        for (index, record) in records.enumerated() {
            guard case .object(let object) = record else { continue }
            var cells = [TableBuilder.Cell](repeating: .value(.null), count: columns.count)
            for member in object.members { cells[positions[member.key]!] = .value(member.value) }
            builder.add(cells, at: .record(index))
        }
        return try builder.table(
            id: options.tableID ?? defaultID(for: name), title: options.title, readingProblems: problems)
    }

    /// Whether a JSON value is an array of records rather than Table documents:
    /// an array whose first element is not an object with `sections`.
    public static func isRecords(_ value: JSONValue) -> Bool {
        guard case .array(let elements) = value else { return false }
        guard case .object(let first)? = elements.first else { return !elements.isEmpty }
        return first["sections"] == nil
    }
}
