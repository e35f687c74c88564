/// JSON written into room reserved once (``JSONWriter/write(atMost:_:)``), with
/// the calls of ``JSONWriter`` and its commas: an encoder that writes many small
/// values (a row's nineteen members) writes them in one step.
///
/// Each call needs at most the bytes its `maximumCount…` function answers; the
/// caller reserves at least their sum (a call that does not fit is a
/// precondition failure, see ``ReservedBytes``).
public struct JSONSpan {
    @usableFromInline var output: ReservedBytes
    /// Whether the next value or key follows a sibling and so needs a comma.
    @usableFromInline var needsComma: Bool

    @usableFromInline
    init(output: ReservedBytes, needsComma: Bool) {
        self.output = output
        self.needsComma = needsComma
    }

    /// The most bytes a container's opening or closing, `true`, `false` or `null`
    /// takes, a comma included.
    public static let maximumLiteralCount = 6
    /// The most bytes ``integer(_:)`` takes, a comma included.
    public static let maximumIntegerCount = 1 + ReservedBytes.maximumDecimalCount
    /// The most bytes ``double(_:)`` takes, a comma included (the longest
    /// shortest form of a `Double` has 24 characters).
    public static let maximumDoubleCount = 32

    /// The most bytes ``string(_:)`` takes for `value`, a comma included.
    @inlinable
    public static func maximumCount(of value: String?) -> Int {
        guard let value else { return maximumLiteralCount }
        return 1 + ReservedBytes.maximumJSONQuotedCount(value)
    }

    /// The most bytes ``key(_:)-(String)`` takes for `key`, its comma and colon included.
    @inlinable
    public static func maximumCount(ofKey key: String) -> Int {
        2 + ReservedBytes.maximumJSONQuotedCount(key)
    }

    @inlinable
    mutating func separate() {
        if needsComma { output.append(UInt8(ascii: ",")) }
    }

    @inlinable
    public mutating func beginObject() { open(UInt8(ascii: "{")) }

    @inlinable
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    @inlinable
    public mutating func beginArray() { open(UInt8(ascii: "[")) }

    @inlinable
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    @inlinable
    mutating func open(_ bracket: UInt8) {
        separate()
        output.append(bracket)
        needsComma = false
    }

    @inlinable
    mutating func close(_ bracket: UInt8) {
        output.append(bracket)
        needsComma = true
    }

    /// Writes an object member's key; the next value written is its value.
    public mutating func key(_ key: String) {
        separate()
        output.appendJSONQuoted(key)
        output.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a key made once: one copy, nothing to escape again.
    @inlinable
    public mutating func key(_ key: JSONKey) {
        key.bytes.withUnsafeBufferPointer { member in
            output.append(needsComma ? member : UnsafeBufferPointer(rebasing: member.dropFirst()))
        }
        needsComma = false
    }

    @inlinable
    public mutating func string(_ value: String) {
        separate()
        output.appendJSONQuoted(value)
        needsComma = true
    }

    /// Writes a string quoted and escaped once before: one copy.
    @inlinable
    public mutating func string(_ value: JSONQuotedString) {
        separate()
        value.bytes.withUnsafeBufferPointer { output.append($0) }
        needsComma = true
    }

    /// Writes `value` as a string, or `null` when it is nil.
    @inlinable
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func integer(_ value: Int) {
        separate()
        output.appendDecimal(value)
        needsComma = true
    }

    /// Writes the shortest text that reads back as the same `Double`; integral
    /// values without a fraction (`44`, not `44.0`). Non-finite values, which JSON
    /// cannot express, are written as `null`.
    public mutating func double(_ value: Double) {
        separate()
        if value.isFinite, value.rounded(.towardZero) == value, value.magnitude < 0x1p53 {
            if value == 0, value.sign == .minus {
                output.append("-0")
            } else {
                output.appendDecimal(Int(value))
            }
        } else if value.isFinite {
            var text = value.description
            text.withUTF8 { output.append($0) }
        } else {
            output.append("null")
        }
        needsComma = true
    }

    /// Writes `value`, or `null` when it is nil.
    public mutating func double(_ value: Double?) {
        if let value { double(value) } else { null() }
    }

    @inlinable
    public mutating func bool(_ value: Bool) {
        separate()
        output.append(value ? "true" : "false")
        needsComma = true
    }

    @inlinable
    public mutating func null() {
        separate()
        output.append("null")
        needsComma = true
    }

    /// Places the comma a value written next (outside the span) needs.
    mutating func beginValue() {
        separate()
        needsComma = true
    }
}
