/// Why a text is not valid JSON, and where: the byte offset of the offending
/// byte, and the same place as a 1-based line and column (columns count Unicode
/// scalars, so a column matches what an editor shows).
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero-based offset of the offending byte in the input.
    public var offset: Int
    /// 1-based line of the offending byte.
    public var line: Int
    /// 1-based column of the offending byte, in Unicode scalars.
    public var column: Int
    /// What is wrong, e.g. `expected ':' after object key`.
    public var reason: String

    public init(offset: Int, line: Int, column: Int, reason: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `malformed JSON at line 1, column 7: expected ':' after object key`.
    public var message: String { "malformed JSON at line \(line), column \(column): \(reason)" }

    public var description: String { message }

    /// The error for the byte at `offset` of `bytes`, with its line and column counted.
    static func at(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>, _ reason: String) -> JSONParseError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParseError(offset: offset, line: line, column: column, reason: reason)
    }
}
