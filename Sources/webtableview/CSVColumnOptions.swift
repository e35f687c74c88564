import ArgumentParser
import TableImport
import TableModel

/// How a CSV file makes a table, as `import` and `serve` take it
/// (docs/FORMAT.md, "From a CSV file"): one option group for both commands.
/// `serve` applies it to every CSV file it reads; `--table-id` names one
/// table, so it goes with one file only.
struct CSVColumnOptions: ParsableArguments {
    @Option(name: .customLong("table-id"), help: "The table's id (default: the file's name).")
    var tableID: String?

    @Option(help: "The table's title.")
    var title: String?

    @Option(help: "The table's style: plain, grouped or insetGrouped.")
    var style: String?

    @Option(help: ArgumentHelp("The column of the rows' text.", valueName: "column"))
    var text: String?

    @Option(help: ArgumentHelp("The column of the rows' detail.", valueName: "column"))
    var detail: String?

    @Option(help: ArgumentHelp("The column of the rows' ids.", valueName: "column"))
    var id: String?

    @Option(help: ArgumentHelp("Group rows into sections by this column's values.", valueName: "column"))
    var section: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Sort the rows of each section by this column; -COLUMN sorts descending.", valueName: "column"))
    var sort: String?

    @Flag(name: .customLong("sort-sections"), help: "Sort the sections by their header.")
    var sortSections = false

    @Flag(
        name: .customLong("index-titles"), help: "Give each section the first letter of its header as its index title.")
    var indexTitles = false

    @Option(
        help: ArgumentHelp(
            "The columns that become the rows' fields, comma-separated (default: all the others).", valueName: "columns"
        ))
    var fields: String?

    @Flag(name: .customLong("no-fields"), help: "Rows without fields.")
    var noFields = false

    @Option(
        help: ArgumentHelp(
            "The character between fields: , ; or tab (default: found from the header row).", valueName: "char"))
    var delimiter: String?

    @Option(
        help: ArgumentHelp(
            "The file's encoding when it has no byte order mark: utf-8, latin-1, windows-1252 or utf-16 (default: utf-8).",
            valueName: "name"))
    var encoding: String?

    func validate() throws {
        if fields != nil && noFields {
            throw ArgumentParser.ValidationError("--fields and --no-fields exclude each other")
        }
        if let delimiter, CSVDelimiter.named(delimiter) == nil {
            throw ArgumentParser.ValidationError(
                "--delimiter must be one character (not a quote or a line break), or tab")
        }
        if let style, TableStyle(rawValue: style) == nil {
            let names = TableStyle.allCases.map(\.rawValue).joined(separator: ", ")
            throw ArgumentParser.ValidationError("--style must be one of \(names)")
        }
        if let encoding, TextEncoding(named: encoding) == nil {
            let names = TextEncoding.allCases.map(\.rawValue).joined(separator: ", ")
            throw ArgumentParser.ValidationError("--encoding must be one of \(names)")
        }
    }

    /// Refuses `--table-id` for more than one file: every table would have that id.
    func validate(fileCount: Int) throws {
        if let tableID, fileCount > 1 {
            throw ArgumentParser.ValidationError(
                "--table-id \(tableID) names one table, but \(fileCount) files are given: serve one file with it, "
                    + "or let each table take its file's name")
        }
    }

    /// The options as `CSVImport` takes them.
    var importOptions: CSVImportOptions {
        var options = CSVImportOptions(
            tableID: tableID, title: title, style: style.flatMap(TableStyle.init(rawValue:)) ?? .plain,
            text: text.map(ColumnReference.init), detail: detail.map(ColumnReference.init),
            id: id.map(ColumnReference.init),
            section: section.map(ColumnReference.init), sortSections: sortSections, indexTitles: indexTitles,
            fields: noFields ? .none : fields.map(CSVImportOptions.fieldColumns) ?? .remaining,
            delimiter: delimiter.flatMap(CSVDelimiter.named),
            encoding: encoding.flatMap(TextEncoding.init(named:)) ?? .utf8)
        if let sort { options.setSort(sort) }
        return options
    }
}
