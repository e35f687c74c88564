/// Writes compact JSON as UTF-8 bytes, for fast hand-written encoders.
///
/// The writer places commas itself: open a container, then write values (in an
/// array) or `key(_:)`/value pairs (in an object), then close it.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("id"); writer.string("countries")
/// writer.key("rowHeight"); writer.double(44)
/// writer.endObject()
/// writer.bytes // {"id":"countries","rowHeight":44}
/// ```
///
/// Strings are escaped so that the output is safe inside HTML `<script>`
/// elements and one-line Server-Sent-Events data: besides `"`, `\` and control
/// characters, `<`, `>`, `&`, U+2028 and U+2029 are written as `\uXXXX`, and no
/// line break is ever written raw. Nothing checks that calls are balanced: that
/// is the caller's job.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public internal(set) var bytes: [UInt8]
    /// Whether the next value or key follows a sibling and so needs a comma.
    private var needsComma = false

    public init(reservingCapacity capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Hands over the bytes written so far and empties the buffer, keeping the
    /// writer's place: what is written next continues the same document, so a
    /// large document can be sent in pieces.
    public mutating func takeBytes() -> [UInt8] {
        let taken = bytes
        bytes = []
        bytes.reserveCapacity(taken.count)
        return taken
    }

    /// Ends a finished document with a line feed (whitespace JSON allows after
    /// it), so that an answer printed in a terminal ends its line.
    public mutating func lineFeed() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Writes what `body` writes through a ``JSONSpan``, at most `maximumCount`
    /// bytes, in one step: room is reserved once and the values are stored
    /// without a check of the buffer each (see ``ReservedBytes``).
    public mutating func write(atMost maximumCount: Int, _ body: (inout JSONSpan) -> Void) {
        var needsComma = self.needsComma
        bytes.append(atMost: maximumCount) { output in
            var span = JSONSpan(output: output, needsComma: needsComma)
            body(&span)
            output = span.output
            needsComma = span.needsComma
        }
        self.needsComma = needsComma
    }

    public mutating func beginObject() {
        write(atMost: JSONSpan.maximumLiteralCount) { $0.beginObject() }
    }

    public mutating func endObject() {
        write(atMost: JSONSpan.maximumLiteralCount) { $0.endObject() }
    }

    public mutating func beginArray() {
        write(atMost: JSONSpan.maximumLiteralCount) { $0.beginArray() }
    }

    public mutating func endArray() {
        write(atMost: JSONSpan.maximumLiteralCount) { $0.endArray() }
    }

    /// Writes an object member's key; the next value written is its value.
    public mutating func key(_ key: String) {
        write(atMost: JSONSpan.maximumCount(ofKey: key)) { $0.key(key) }
    }

    /// Writes a key made once (``JSONKey``): one copy, nothing to escape again.
    public mutating func key(_ key: JSONKey) {
        write(atMost: key.bytes.count) { $0.key(key) }
    }

    public mutating func string(_ value: String) {
        write(atMost: JSONSpan.maximumCount(of: value)) { $0.string(value) }
    }

    /// Writes `value` as a string, or `null` when it is nil.
    public mutating func string(_ value: String?) {
        write(atMost: JSONSpan.maximumCount(of: value)) { $0.string(value) }
    }

    public mutating func integer(_ value: Int) {
        write(atMost: JSONSpan.maximumIntegerCount) { $0.integer(value) }
    }

    /// Writes the shortest text that reads back as the same `Double`; integral
    /// values without a fraction (`44`, not `44.0`). Non-finite values, which JSON
    /// cannot express, are written as `null`.
    public mutating func double(_ value: Double) {
        write(atMost: JSONSpan.maximumDoubleCount) { $0.double(value) }
    }

    /// Writes `value`, or `null` when it is nil.
    public mutating func double(_ value: Double?) {
        write(atMost: JSONSpan.maximumDoubleCount) { $0.double(value) }
    }

    public mutating func bool(_ value: Bool) {
        write(atMost: JSONSpan.maximumLiteralCount) { $0.bool(value) }
    }

    public mutating func null() {
        write(atMost: JSONSpan.maximumLiteralCount) { $0.null() }
    }

    /// Writes bytes that already hold one complete JSON value, such as a cached
    /// encoding, as the next value.
    public mutating func rawValue(_ json: some Sequence<UInt8>) {
        write(atMost: 1) { $0.beginValue() }
        bytes.append(contentsOf: json)
    }

    /// Writes a whole parsed value, keeping object members in their order.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let bool): self.bool(bool)
        case .integer(let integer): self.integer(integer)
        case .number(let number): rawValue(number.literal.utf8)
        case .string(let string): self.string(string)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object): self.object(object)
        }
    }

    /// Writes an object's members in their order.
    public mutating func object(_ object: JSONObject) {
        beginObject()
        for member in object.members {
            key(member.key)
            value(member.value)
        }
        endObject()
    }

    /// Writes `{`, lets `body` write the members, then `}`.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginObject()
        body(&self)
        endObject()
    }

    /// Writes `[`, lets `body` write the elements, then `]`.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        beginArray()
        body(&self)
        endArray()
    }

    /// Writes `key` and lets `body` write its value.
    public mutating func member(_ key: String, _ body: (inout JSONWriter) -> Void) {
        self.key(key)
        body(&self)
    }
}

/// An object member's key quoted, escaped and followed by `:` once, for encoders
/// that write the same keys for every row: ``JSONWriter/key(_:)-(JSONKey)`` copies
/// it in one step where ``JSONWriter/key(_:)-(String)`` escapes the key each time.
public struct JSONKey: Sendable {
    /// `,"name":`; the comma is left out before an object's first member.
    public let bytes: [UInt8]

    public init(_ name: String) {
        var bytes: [UInt8] = []
        bytes.append(atMost: 2 + ReservedBytes.maximumJSONQuotedCount(name)) { output in
            output.append(UInt8(ascii: ","))
            output.appendJSONQuoted(name)
            output.append(UInt8(ascii: ":"))
        }
        self.bytes = bytes
    }
}

/// A string value quoted and escaped once, for encoders that write the same few
/// values for many rows (an enumeration's names): ``JSONSpan/string(_:)-(JSONQuotedString)``
/// copies it in one step.
public struct JSONQuotedString: Sendable {
    /// `"value"`, escaped.
    public let bytes: [UInt8]

    public init(_ value: String) {
        var bytes: [UInt8] = []
        bytes.append(atMost: ReservedBytes.maximumJSONQuotedCount(value)) { $0.appendJSONQuoted(value) }
        self.bytes = bytes
    }
}
