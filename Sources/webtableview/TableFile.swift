import Foundation
import JSON
import TableImport
import TableModel

/// Reading tables from files (`serve FILE…`, `--data`, `check` and `import`).
enum TableFile {
    /// The tables in `path` (`-` is standard input): one Table document or an
    /// array of them, or the table `csvOptions` make of a CSV file or of a JSON
    /// array of records. Which it is is told by the content, not the name: JSON
    /// begins with `{` or `[`, and an array is of records unless its first
    /// element has `sections` (docs/FORMAT.md, "From a JSON array of records").
    /// `progress` hears how much of a CSV file is read (0 to 1), every so many records.
    static func load(
        _ path: String, limits: ModelLimits, csvOptions: CSVImportOptions = CSVImportOptions(),
        progress: ((Double) -> Void)? = nil
    ) -> Result<[Table], TableFileError> {
        guard let read = read(path) else {
            return .failure(TableFileError(messages: [unreadable(path)]))
        }
        let data = Array(consume read)
        let name = path == "-" ? "stdin" : path
        guard CSVImport.isJSON(Array(data.prefix(64))) else {
            do throws(CSVImportError) {
                return .success([
                    try CSVImport.table(csv: data, name: name, options: csvOptions, limits: limits, progress: progress)
                ])
            } catch {
                return .failure(TableFileError(messages: error.report))
            }
        }
        let value: JSONValue
        switch parsed(consume data) {
        case .success(let parsed): value = parsed
        case .failure(let error): return .failure(error)
        }
        if CSVImport.isRecords(value) {
            do throws(CSVImportError) {
                return .success([try CSVImport.table(records: value, name: name, options: csvOptions, limits: limits)])
            } catch {
                return .failure(TableFileError(messages: error.report))
            }
        }
        do {
            return .success(try ModelDecoder.tables(from: value, limits: limits))
        } catch {
            return .failure(TableFileError(messages: error.issues.map { "\($0.path): \($0.message)" }))
        }
    }

    /// The bytes of the file at `path`, or of standard input for `-`.
    private static func read(_ path: String) -> Data? {
        path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
    }

    /// Why the file at `path` could not be read, in words: not there, a
    /// folder, or not readable by this user.
    static func unreadable(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return "not found: no such file"
        }
        if isDirectory.boolValue { return "is a folder, not a file of tables" }
        guard FileManager.default.isReadableFile(atPath: path) else {
            return "not readable: permission denied to this user"
        }
        return "could not be read"
    }

    /// The JSON value of a file's bytes, parsed as read (no copy of them); the
    /// bytes are let go on return, before the value is decoded into tables, so
    /// that the bytes and the rows are never in memory together (the peak while
    /// loading, docs/perf-history/fixed-in-the-product.md, *Memory under edits*).
    private static func parsed(_ data: consuming [UInt8]) -> Result<JSONValue, TableFileError> {
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
