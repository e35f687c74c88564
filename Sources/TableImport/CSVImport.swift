import Foundation
import TableModel

/// Why a CSV file did not make a table: every problem found, each with the line
/// it is on when it has one.
public struct CSVImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The line (from 1) where the record or quoted field in question begins.
        public var line: Int?
        /// Where in a JSON file the record in question is (`$[3]`).
        public var path: String?
        public var message: String

        public init(line: Int?, _ message: String) {
            self.line = line
            self.message = message
        }

        public init(path: String, _ message: String) {
            self.path = path
            self.message = message
        }

        /// `line 3` or `$[2]`, when the problem has a place.
        public var place: String? { line.map { "line \($0)" } ?? path }

        /// `line 3: 2 fields, but the header has 3`.
        public var description: String { place.map { "\($0): \(message)" } ?? message }
    }

    /// Problems a report lists before it sums up the rest as "and N more".
    public static let reportedProblems = 20

    public var problems: [Problem]

    public init(problems: [Problem]) {
        self.problems = problems
    }

    /// The first ``reportedProblems`` problems, one line each, then
    /// `and N more problems` when there are more.
    public var report: [String] {
        let shown = problems.prefix(Self.reportedProblems).map(\.description)
        let more = problems.count - shown.count
        return more > 0 ? shown + ["and \(more) more \(more == 1 ? "problem" : "problems")"] : shown
    }

    public var description: String { report.joined(separator: "\n") }
}

/// CSV files into tables: ``CSVReader`` reads the records, one at a time with
/// their lines, and ``TableBuilder`` makes them rows.
public enum CSVImport {
    /// Records read between two calls of `table`'s `progress`.
    public static let recordsPerProgress = 100_000

    /// The table `data` (a CSV file, UTF-8, with a header row) makes. `name` is
    /// the file's name, for the default table id and delimiter. `progress` is
    /// told the share of the file read (0 to 1) every ``recordsPerProgress`` records.
    public static func table(
        csv data: [UInt8], name: String, options: CSVImportOptions = CSVImportOptions(), limits: ModelLimits = .default,
        progress: ((Double) -> Void)? = nil
    ) throws(CSVImportError) -> Table {
        let data = options.encoding.utf8(data)
        let delimiter = options.delimiter ?? CSVDelimiter.sniff(data, name: name)
        var reader = CSVReader(data, delimiter: delimiter)
        var problems: [CSVImportError.Problem] = []
        var builder: TableBuilder?
        var records = 0
        while let item = reader.next() {
            records += 1
            if let progress, records % recordsPerProgress == 0 { progress(Double(reader.offset) / Double(data.count)) }
            switch item {
            case .problem(let problem):
                problems.append(problem)
            case .record(let record):
                if builder != nil {
                    builder!.add(record.fields, line: record.line)
                } else {
                    builder = try TableBuilder(header: record.fields, options: options, limits: limits)
                }
            }
        }
        guard let builder else {
            problems.append(.init(line: nil, "the file is empty: a header row naming the columns comes first"))
            throw CSVImportError(problems: problems)
        }
        let id = options.tableID ?? defaultID(for: name)
        return try builder.table(id: id, title: options.title, readingProblems: problems)
    }

    /// Whether `data` is JSON rather than CSV: its first character, after any
    /// byte order mark and white space, opens an object or an array.
    public static func isJSON(_ data: [UInt8]) -> Bool {
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        let first = text.first {
            ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains($0)
        }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// `name` without its folders and extension (`.csv`, `.tsv`, `.tab`,
    /// `.txt`), each character outside `[A-Za-z0-9_-]` made `-`, cut to 64.
    static func defaultID(for name: String) -> String {
        var base = Substring(name.split(separator: "/").last ?? "")
        for ext in [".csv", ".tsv", ".tab", ".txt"] where base.lowercased().hasSuffix(ext) {
            base = base.dropLast(ext.count)
        }
        return identifier(base)
    }

    /// `text` with each character outside `[A-Za-z0-9_-]` made `replacement`, cut to 64.
    static func identifier(_ text: Substring, replacement: Character = "-") -> String {
        let id = String(
            text.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "-")
                    ? Character(scalar) : replacement
            })
        return String(id.prefix(64))
    }
}
