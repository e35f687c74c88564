import CSV
import Foundation
import TableModel

/// A column of a CSV file: by its name in the header row, or by its number
/// (1 for the first column).
public enum CSVColumn: Sendable, Equatable, CustomStringConvertible {
    case named(String)
    case number(Int)

    /// `"3"` is the third column; anything else is a name.
    public init(_ text: String) {
        if let number = Int(text), number >= 1 {
            self = .number(number)
        } else {
            self = .named(text)
        }
    }

    public var description: String {
        switch self {
        case .named(let name): "\"\(name)\""
        case .number(let number): "\(number)"
        }
    }
}

/// Which columns make a table of a CSV file (docs/FORMAT.md, "From a CSV file").
/// A column left nil takes the one named like the field, when the header has it.
public struct CSVImportOptions: Sendable, Equatable {
    /// The table's id; by default the file's name without `.csv`, cut to an id.
    public var tableID: String?
    public var title: String?
    /// The rows' `text`: by default the column `text`, or else the first column.
    public var text: CSVColumn?
    /// The rows' `detail`: by default the column `detail`, if any.
    public var detail: CSVColumn?
    /// The rows' `id`: by default the column `id`, if any.
    public var id: CSVColumn?
    /// Rows with the same value here make one section, headed by that value, in
    /// the order the values first appear: by default the column `section`, if any.
    public var section: CSVColumn?
    /// Rows are sorted by this column within their section (numbers as numbers,
    /// text ignoring case); without it they keep the file's order.
    public var sort: CSVColumn?
    /// Sections sorted by their header, like rows, rather than in file order.
    public var sortSections: Bool

    public init(
        tableID: String? = nil, title: String? = nil, text: CSVColumn? = nil, detail: CSVColumn? = nil,
        id: CSVColumn? = nil, section: CSVColumn? = nil, sort: CSVColumn? = nil, sortSections: Bool = false
    ) {
        self.tableID = tableID
        self.title = title
        self.text = text
        self.detail = detail
        self.id = id
        self.section = section
        self.sort = sort
        self.sortSections = sortSections
    }
}

/// Why a CSV file did not make a table: every problem found, each with the line
/// it is on when it has one.
public struct CSVImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The line (from 1) where the record or quoted field in question begins.
        public var line: Int?
        public var message: String

        public init(line: Int?, _ message: String) {
            self.line = line
            self.message = message
        }

        /// `line 3: 2 fields, but the header has 3`.
        public var description: String { line.map { "line \($0): \(message)" } ?? message }
    }

    public var problems: [Problem]
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// CSV files into tables. yaslab/CSV.swift splits the records and fields
/// (RFC 4180: quoted fields, doubled quotes, delimiters and line breaks inside
/// quotes, CRLF, LF or CR); a first pass over the text finds the line each
/// record starts on and refuses what that reader would let through silently —
/// a quoted field never closed, a quote inside an unquoted field, text after a
/// closing quote — so every problem is reported with its line.
public enum CSVImport {
    /// The table `data` (a CSV file, UTF-8, with a header row) makes. `name` is
    /// the file's name, for the default table id.
    public static func table(
        csv data: [UInt8], name: String, options: CSVImportOptions = CSVImportOptions(), limits: ModelLimits = .default
    ) throws(CSVImportError) -> Table {
        let text = try decodeUTF8(data)
        let lines = try recordLines(text)
        let records: [[String]]
        do {
            let reader = try CSVReader(string: text, hasHeaderRow: false)
            records = Array(AnyIterator { reader.next() })
        } catch {
            throw CSVImportError(problems: [.init(line: nil, "cannot read the file as CSV: \(error)")])
        }
        guard records.count == lines.count else {
            throw CSVImportError(problems: [.init(line: nil, "the file's records could not be told apart")])
        }
        // Blank lines are no records.
        let numbered = zip(lines, records).filter { $0.1 != [""] }
        guard let header = numbered.first else {
            throw CSVImportError(problems: [.init(line: nil, "the file is empty: a header row naming the columns comes first")])
        }
        var builder = try TableBuilder(header: header.1, options: options, limits: limits)
        for (line, fields) in numbered.dropFirst() {
            builder.add(fields, line: line)
        }
        let id = options.tableID ?? defaultID(for: name)
        return try builder.table(id: id, title: options.title)
    }

    /// The file's text; a UTF-8 byte order mark is dropped.
    static func decodeUTF8(_ data: [UInt8]) throws(CSVImportError) -> String {
        let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(data.dropFirst(3)) : data
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
            case .emptyInput: break decoding
            case .error: throw CSVImportError(problems: [.init(line: line, "not UTF-8 text (save the file as UTF-8)")])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The line each record of `text` starts on, blank ones included, in the
    /// order CSVReader reads them; refuses quoting that reader would misread.
    static func recordLines(_ text: String) throws(CSVImportError) -> [Int] {
        let scalars = Array(text.unicodeScalars)
        var starts: [Int] = []
        var line = 1
        var inRecord = false
        var atFieldStart = true
        var inQuotes = false
        var afterClosingQuote = false
        var quoteLine = 0
        var index = 0
        func fail(_ line: Int, _ message: String) -> CSVImportError {
            CSVImportError(problems: [.init(line: line, message)])
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let isBreak = scalar == "\n" || scalar == "\r"
            // CR LF is one line break.
            let width = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n" ? 2 : 1
            if !inRecord {
                starts.append(line)
                inRecord = true
            }
            if inQuotes {
                if scalar == "\"" {
                    if index + 1 < scalars.count && scalars[index + 1] == "\"" {
                        index += 1
                    } else {
                        inQuotes = false
                        afterClosingQuote = true
                    }
                } else if isBreak {
                    line += 1
                }
            } else if scalar == "\"" {
                guard atFieldStart else {
                    throw fail(
                        line,
                        afterClosingQuote
                            ? "text after a closing quote; a quote inside a quoted field is written twice (\"\")"
                            : "a quote inside an unquoted field; quote the whole field and write the quote twice (\"\")")
                }
                inQuotes = true
                quoteLine = line
                atFieldStart = false
            } else if scalar == "," {
                atFieldStart = true
                afterClosingQuote = false
            } else if isBreak {
                line += 1
                inRecord = false
                atFieldStart = true
                afterClosingQuote = false
            } else {
                if afterClosingQuote {
                    throw fail(line, "text after a closing quote; a quote inside a quoted field is written twice (\"\")")
                }
                atFieldStart = false
            }
            index += width
        }
        if inQuotes {
            throw fail(quoteLine, "a quoted field opens here and is never closed")
        }
        return starts
    }

    /// `name` without its folders and `.csv`, each character outside
    /// `[A-Za-z0-9_-]` made `-`, cut to 64.
    static func defaultID(for name: String) -> String {
        var base = Substring(name.split(separator: "/").last ?? "")
        if base.lowercased().hasSuffix(".csv") { base = base.dropLast(4) }
        let id = String(
            base.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "-") ? Character(scalar) : "-"
            })
        return String(id.prefix(64))
    }
}
