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
            line, and the exit status is 1. `serve FILE.csv` reads a file the same way and \
            takes these options too. See docs/FORMAT.md, "From a CSV file".
            """
    )

    @Argument(help: "The CSV file (UTF-8, with a header row); - reads standard input.")
    var file: String

    @OptionGroup(title: "How the CSV file makes a table")
    var columns: CSVColumnOptions

    @Flag(help: "Write every member of every row, defaults included (default: only those that differ).")
    var full = false

    func run() throws {
        switch TableFile.load(file, limits: .default, csvOptions: columns.importOptions) {
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
