import Foundation
import JSON
import TableImport
import TableModel

/// Reading Table documents from files (`--data`, `check` and `import`).
enum TableFile {
    /// The tables in `path`: one Table document or an array of them, or, for a
    /// `.csv` file, the table `csvOptions` make of it.
    static func load(
        _ path: String, limits: ModelLimits, csvOptions: CSVImportOptions = CSVImportOptions()
    ) -> Result<[Table], TableFileError> {
        if path.lowercased().hasSuffix(".csv") {
            guard let data = FileManager.default.contents(atPath: path) else {
                return .failure(TableFileError(messages: ["cannot read the file"]))
            }
            do throws(CSVImportError) {
                return .success([try CSVImport.table(csv: Array(data), name: path, options: csvOptions, limits: limits)])
            } catch {
                return .failure(TableFileError(messages: error.problems.map(\.description)))
            }
        }
        let value: JSONValue
        switch parsed(path) {
        case .success(let parsed): value = parsed
        case .failure(let error): return .failure(error)
        }
        do {
            return .success(try ModelDecoder.tables(from: value, limits: limits))
        } catch {
            return .failure(TableFileError(messages: error.issues.map { "\($0.path): \($0.message)" }))
        }
    }

    /// The JSON value of the file at `path`, parsed from its bytes as read (no copy of
    /// them); the bytes are let go on return, before the value is decoded into tables,
    /// so that the bytes and the rows are never in memory together (the peak while loading,
    /// scripts/bench/findings.md, *Memory under edits*).
    private static func parsed(_ path: String) -> Result<JSONValue, TableFileError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(TableFileError(messages: ["cannot read the file"]))
        }
        do {
            return .success(try JSONParser().parse(data))
        } catch {
            return .failure(TableFileError(messages: ["\(error)"]))
        }
    }

    /// Every problem in `path`, one line each; empty when the file is valid.
    static func problems(in path: String, limits: ModelLimits) -> [String] {
        switch load(path, limits: limits) {
        case .success: []
        case .failure(let error): error.messages
        }
    }
}

/// Why a table file could not be used: one message per problem found.
struct TableFileError: Error {
    var messages: [String]
}
