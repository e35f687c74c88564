import ArgumentParser
import Foundation
import TableImport
import TableModel

/// `webtableview import FILE`: a Table document from a CSV file, on standard output.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a Table document (JSON, on standard output) of a CSV file with a header row.",
        discussion: """
            COLUMN is a name from the header row or a number (1 for the first). Without \
            --text, the column "text" or else the first not read for something else; --detail, --id and --section default \
            to the columns of those names, when there are; every other column becomes the rows' \
            fields. The delimiter (comma, semicolon or tab) is found from the header row. A file \
            that begins with { or [ is read as JSON instead. Problems are reported with their \
            line, and the exit status is 1. `serve FILE.csv` reads a file the same way, with \
            these defaults. See docs/FORMAT.md, "From a CSV file".
            """
    )

    @Argument(help: "The CSV file (UTF-8, with a header row); - reads standard input.")
    var file: String

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

    @Flag(help: "Write every member of every row, defaults included (default: only those that differ).")
    var full = false

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
    }

    func run() throws {
        var options = CSVImportOptions(
            tableID: tableID, title: title, style: style.flatMap(TableStyle.init(rawValue:)) ?? .plain,
            text: text.map(ColumnReference.init), detail: detail.map(ColumnReference.init),
            id: id.map(ColumnReference.init),
            section: section.map(ColumnReference.init), sortSections: sortSections, indexTitles: indexTitles,
            fields: noFields ? .none : fields.map(CSVImportOptions.fieldColumns) ?? .remaining,
            delimiter: delimiter.flatMap(CSVDelimiter.named))
        if let sort { options.setSort(sort) }
        switch TableFile.load(file, limits: .default, csvOptions: options) {
        case .success(let tables):
            for table in tables {
                let bytes = full ? table.jsonBytes : CompactJSON.bytes(of: table)
                FileHandle.standardOutput.write(Data(bytes + [UInt8(ascii: "\n")]))
            }
        case .failure(let error):
            for message in error.messages {
                FileHandle.standardError.write(Data("\(file): \(message)\n".utf8))
            }
            throw ExitCode(1)
        }
    }
}
