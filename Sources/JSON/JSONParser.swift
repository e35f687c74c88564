/// A strict RFC 8259 parser.
///
/// Refuses everything the RFC does not allow (trailing commas, leading zeros,
/// comments, unescaped control characters, a byte order mark, text after the
/// value), plus what would make a document ambiguous or hostile: duplicate
/// object keys, invalid UTF-8, lone surrogate escapes, numbers outside `Double`'s
/// range (unless ``numbersBeyondRangeAreInfinite``) and nesting deeper than `maxDepth`.
///
/// The parser is iterative (an explicit stack of open containers), so no input
/// can exhaust the call stack; it reads the input once, in O(n).
///
/// ```swift
/// let value = try JSONParser().parse(#"{"id": "countries"}"#)
/// ```
public struct JSONParser: Sendable {
    /// The nesting limit used when none is given.
    public static let defaultMaxDepth = 64

    /// The most containers (arrays and objects) that may be open at once;
    /// `[[1]]` has depth 2. Parsing never recurses, but code that walks a value
    /// (comparing, destroying, writing it) does, so keep the limit modest.
    public var maxDepth: Int
    /// When set, a number beyond `Double`'s finite range (`1e309`, a
    /// 400-digit integer) is kept (its `double` is ±infinity) instead of refusing
    /// the whole text: a decoder can then refuse it with its JSON path.
    public var numbersBeyondRangeAreInfinite: Bool

    public init(maxDepth: Int = JSONParser.defaultMaxDepth, numbersBeyondRangeAreInfinite: Bool = false) {
        self.maxDepth = maxDepth
        self.numbersBeyondRangeAreInfinite = numbersBeyondRangeAreInfinite
    }

    /// Parses one JSON text from its UTF-8 bytes.
    public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) in try parse(buffer: buffer) }
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try parse(buffer: buffer) }
        }.get()
    }

    /// Parses one JSON text.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(text.utf8)
    }

    private func parse(buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var scanner = JSONScanner(bytes: buffer, maxDepth: maxDepth)
        scanner.numbersBeyondRangeAreInfinite = numbersBeyondRangeAreInfinite
        return try scanner.parseDocument()
    }
}

/// One open array or object while parsing.
private struct OpenContainer {
    let isObject: Bool
    var elements: [JSONValue] = []
    var members: [JSONMember] = []
    /// The key whose value is being read.
    var key = ""
    /// Keys seen so far, kept once an object is large enough for a linear scan to
    /// cost more than hashing (typical documents never get there).
    var keySet: Set<String>?

    /// Records `key` as the next member's key; false when the object already has it.
    mutating func accept(key: String) -> Bool {
        if keySet == nil {
            if members.count < 32 {
                if members.contains(where: { $0.key == key }) { return false }
                self.key = key
                return true
            }
            keySet = Set(members.map(\.key))
        }
        guard keySet!.insert(key).inserted else { return false }
        self.key = key
        return true
    }
}

/// The parsing state over one contiguous input.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var numbersBeyondRangeAreInfinite = false
    var index = 0
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw error(at: 0, "a byte order mark (U+FEFF) is not allowed before JSON text")
        }
        var stack: [OpenContainer] = []
        var value: JSONValue
        parsing: while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard stack.count < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    value = .object(JSONObject())
                } else {
                    var object = OpenContainer(isObject: true)
                    try readKey(into: &object)
                    stack.append(object)
                    continue parsing
                }
            case UInt8(ascii: "["):
                guard stack.count < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    value = .array([])
                } else {
                    stack.append(OpenContainer(isObject: false))
                    continue parsing
                }
            case UInt8(ascii: "\""):
                value = .string(try readString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try readNumber()
            case UInt8(ascii: "t"):
                try readLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try readLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try readLiteral("null")
                value = .null
            default:
                throw error("expected a value")
            }
            // Hand the value to its container; close every container that ends here.
            while let top = stack.indices.last {
                skipWhitespace()
                let next = index < bytes.count ? bytes[index] : 0
                if stack[top].isObject {
                    stack[top].members.append(JSONMember(stack[top].key, value))
                    if next == UInt8(ascii: ",") {
                        index += 1
                        skipWhitespace()
                        try readKey(into: &stack[top])
                        continue parsing
                    }
                    guard next == UInt8(ascii: "}") else { throw error("expected ',' or '}' after object member") }
                    index += 1
                    value = .object(JSONObject(stack.removeLast().members))
                } else {
                    stack[top].elements.append(value)
                    if next == UInt8(ascii: ",") {
                        index += 1
                        continue parsing
                    }
                    guard next == UInt8(ascii: "]") else { throw error("expected ',' or ']' after array element") }
                    index += 1
                    value = .array(stack.removeLast().elements)
                }
            }
            break parsing
        }
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    /// Reads `"key":` into `object`, refusing a key the object already has.
    private mutating func readKey(into object: inout OpenContainer) throws(JSONParseError) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected '\"' to begin an object key")
        }
        let keyStart = index
        let key = try readString()
        guard object.accept(key: key) else {
            throw error(at: keyStart, "duplicate key \"\(Self.excerpt(of: key))\" in object")
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw error("expected ':' after object key")
        }
        index += 1
    }

    private mutating func readLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            bytes.count - start >= count && (0..<count).allSatisfy { bytes[start + $0] == expected[$0] }
        }
        guard matches else { throw error("expected a value") }
        index += count
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// An error at the current position; at the end of the input it says so.
    func error(_ reason: String) -> JSONParseError {
        error(at: index, index < bytes.count ? reason : "unexpected end of input, \(reason)")
    }

    func error(at offset: Int, _ reason: String) -> JSONParseError {
        JSONParseError.at(offset, in: bytes, reason)
    }

    /// A key as quoted in a message: at most 64 characters.
    static func excerpt(of text: String) -> String {
        text.unicodeScalars.count <= 64 ? text : String(text.unicodeScalars.prefix(64)) + "…"
    }
}
