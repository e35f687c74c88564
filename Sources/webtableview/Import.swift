import ArgumentParser
import Foundation
import TableImport
import TableModel

/// `webtableview import FILE.csv`: a Table document from a CSV file, on standard output.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a Table document (JSON, on standard output) of a CSV file with a header row.",
        discussion: """
            COLUMN is a name from the header row or a number (1 for the first). Without \
            --text, the column "text" or else the first; --detail, --id and --section default \
            to the columns of those names, when there are. Problems are reported with their \
            line, and the exit status is 1. `serve --data FILE.csv` reads a file the same way, \
            with these defaults. See docs/FORMAT.md, "From a CSV file".
            """
    )

    @Argument(help: "The CSV file (UTF-8, comma-separated, with a header row).")
    var file: String

    @Option(name: .customLong("table-id"), help: "The table's id (default: the file's name).")
    var tableID: String?

    @Option(help: "The table's title.")
    var title: String?

    @Option(help: ArgumentHelp("The column of the rows' text.", valueName: "column"))
    var text: String?

    @Option(help: ArgumentHelp("The column of the rows' detail.", valueName: "column"))
    var detail: String?

    @Option(help: ArgumentHelp("The column of the rows' ids.", valueName: "column"))
    var id: String?

    @Option(help: ArgumentHelp("Group rows into sections by this column's values.", valueName: "column"))
    var section: String?

    @Option(help: ArgumentHelp("Sort the rows of each section by this column.", valueName: "column"))
    var sort: String?

    @Flag(name: .customLong("sort-sections"), help: "Sort the sections by their header.")
    var sortSections = false

    func run() throws {
        let options = CSVImportOptions(
            tableID: tableID, title: title, text: text.map(CSVColumn.init), detail: detail.map(CSVColumn.init),
            id: id.map(CSVColumn.init), section: section.map(CSVColumn.init), sort: sort.map(CSVColumn.init),
            sortSections: sortSections)
        switch TableFile.load(file, limits: .default, csvOptions: options) {
        case .success(let tables):
            for table in tables {
                FileHandle.standardOutput.write(Data(table.jsonBytes + [UInt8(ascii: "\n")]))
            }
        case .failure(let error):
            for message in error.messages {
                FileHandle.standardError.write(Data("\(file): \(message)\n".utf8))
            }
            throw ExitCode(1)
        }
    }
}
