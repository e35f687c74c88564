import ArgumentParser
import Foundation
import JSON
import TableModel

/// `webtableview check FILE...`: validates table files (JSON or CSV) without serving them.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate Table documents and report every error with its JSON path.",
        discussion: "Exits 0 when every file is valid, 1 when one is not, 2 on bad usage."
    )

    @Argument(help: "Files of tables: JSON (one Table document or an array of them) or CSV, told apart by content.")
    var files: [String]

    @Option(name: .customLong("max-field-bytes"), help: "Largest text of one field, in bytes.")
    var maxFieldBytes = ModelLimits().maxFieldBytes

    func validate() throws {
        guard !files.isEmpty else { throw ArgumentParser.ValidationError("give at least one FILE to check") }
    }

    func run() throws {
        var limits = ModelLimits()
        limits.maxFieldBytes = maxFieldBytes
        var valid = true
        for file in files {
            let problems = TableFile.problems(in: file, limits: limits)
            for problem in problems { print("\(file): \(problem)") }
            if problems.isEmpty {
                print("\(file): ok")
            } else {
                valid = false
            }
        }
        if !valid { throw ExitCode(1) }
    }
}
