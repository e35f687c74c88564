/// One record of a CSV file: its fields and the line (from 1) it begins on.
public struct CSVRecord: Sendable, Equatable {
    public var line: Int
    public var fields: [String]

    public init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }
}

/// Reads the records of a CSV file (RFC 4180) one at a time, each with the
/// line it begins on: quoted fields, doubled quotes, delimiters and line breaks
/// inside quotes, CRLF, LF or CR line breaks; blank lines are skipped (a
/// quoted empty field alone on a line is a record, as Python's `csv` reads it)
/// and a UTF-8 byte order mark is dropped.
///
/// A record it cannot read is a problem, not the end: after a quote in the
/// wrong place it goes on at the next line, and after a quoted field that is
/// never closed at the line after the one it opens on, so that one reading
/// finds every problem in the file (docs/FORMAT.md, "From a CSV file").
public struct CSVReader: Sequence, IteratorProtocol {
    /// What the reader found next: a record, or why the text there is none.
    public enum Item: Sendable, Equatable {
        case record(CSVRecord)
        case problem(CSVImportError.Problem)
    }

    private let bytes: [UInt8]
    private let delimiter: UInt8
    private var index: Int
    private var line = 1
    /// The bytes of a quoted field with a doubled quote, made once and reused.
    private var scratch: [UInt8] = []

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// - Parameter delimiter: the byte between fields: `,`, `;` or a tab (an ASCII byte other than a quote or a line break).
    public init(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ",")) {
        precondition(
            delimiter < 0x80 && delimiter != Self.quote && delimiter != Self.lineFeed
                && delimiter != Self.carriageReturn)
        self.bytes = bytes
        self.delimiter = delimiter
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// The bytes read so far, of `bytes.count`.
    public var offset: Int { index }

    public mutating func next() -> Item? {
        // A blank line is no record; a quoted empty field (`""`) alone on its line is one.
        while index < bytes.count, bytes[index] == Self.lineFeed || bytes[index] == Self.carriageReturn {
            if bytes[index] == Self.carriageReturn && index + 1 < bytes.count && bytes[index + 1] == Self.lineFeed {
                index += 1
            }
            index += 1
            line += 1
        }
        return index < bytes.count ? record() : nil
    }

    /// The record that begins at `index`, or the problem that stopped it.
    private mutating func record() -> Item {
        let start = line
        var fields: [String] = []
        var isUTF8 = true
        while true {
            let field: ArraySlice<UInt8>
            switch readField() {
            case .field(let bytes): field = bytes
            case .problem(let problem): return .problem(problem)
            }
            if let text = String(validating: field, as: UTF8.self) {
                fields.append(text)
            } else {
                isUTF8 = false
            }
            // `readField` stops at a delimiter, a line break or the end.
            guard index < bytes.count else { break }
            let byte = bytes[index]
            index += 1
            if byte == delimiter { continue }
            if byte == Self.carriageReturn && index < bytes.count && bytes[index] == Self.lineFeed { index += 1 }
            line += 1
            break
        }
        guard isUTF8 else { return .problem(.init(line: start, "not UTF-8 text (save the file as UTF-8)")) }
        return .record(CSVRecord(line: start, fields: fields))
    }

    private enum Field {
        case field(ArraySlice<UInt8>)
        case problem(CSVImportError.Problem)
    }

    /// The field at `index`, left at the delimiter or line break after it.
    private mutating func readField() -> Field {
        guard index < bytes.count, bytes[index] == Self.quote else {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == delimiter || byte == Self.lineFeed || byte == Self.carriageReturn { break }
                if byte == Self.quote {
                    return skippingLine(
                        "a quote inside an unquoted field; quote the whole field and write the quote twice (\"\")")
                }
                index += 1
            }
            return .field(bytes[start..<index])
        }
        let quoteLine = line
        // Where reading goes on if the quote is never closed: the line after this one.
        var resume: (index: Int, line: Int)?
        index += 1
        var start = index
        var doubled = false
        scratch.removeAll(keepingCapacity: true)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.quote {
                if index + 1 < bytes.count && bytes[index + 1] == Self.quote {
                    doubled = true
                    scratch += bytes[start...index]
                    index += 2
                    start = index
                    continue
                }
                let end = index
                index += 1
                if index < bytes.count {
                    let after = bytes[index]
                    if after != delimiter && after != Self.lineFeed && after != Self.carriageReturn {
                        return skippingLine(
                            "text after a closing quote; a quote inside a quoted field is written twice (\"\")")
                    }
                }
                guard doubled else { return .field(bytes[start..<end]) }
                scratch += bytes[start..<end]
                return .field(scratch[...])
            }
            if byte == Self.lineFeed || byte == Self.carriageReturn {
                if byte == Self.carriageReturn && index + 1 < bytes.count && bytes[index + 1] == Self.lineFeed {
                    index += 1
                }
                line += 1
                if resume == nil { resume = (index + 1, line) }
            }
            index += 1
        }
        (index, line) = resume ?? (bytes.count, line)
        return .problem(.init(line: quoteLine, "a quoted field opens here and is never closed"))
    }

    /// `message` for the current line, reading on from the start of the next.
    private mutating func skippingLine(_ message: String) -> Field {
        let problem = CSVImportError.Problem(line: line, message)
        while index < bytes.count && bytes[index] != Self.lineFeed && bytes[index] != Self.carriageReturn { index += 1 }
        if index < bytes.count {
            if bytes[index] == Self.carriageReturn && index + 1 < bytes.count && bytes[index + 1] == Self.lineFeed {
                index += 1
            }
            index += 1
            line += 1
        }
        return .problem(problem)
    }
}
