extension JSONScanner {
    /// Reads `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// A number without fraction or exponent that fits in `Int` (and is not `-0`)
    /// is an integer; any other keeps its literal (`JSONNumber`). One outside
    /// `Double`'s finite range is refused, or kept when `numbersBeyondRangeAreInfinite`
    /// (its `double` is then ±infinity, for a decoder to refuse with its path).
    mutating func readNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard isDigit(at: index) else { throw error("expected a digit after '-'") }
        let integerStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(at: index) { throw error(at: start, "leading zeros are not allowed in numbers") }
        } else {
            skipDigits()
        }
        let integerEnd = index
        var fractionEnd = integerEnd
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(at: index) else { throw error("expected a digit after '.' in number") }
            skipDigits()
            fractionEnd = index
        }
        var hasExponent = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            hasExponent = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(at: index) else { throw error("expected a digit in the exponent of number") }
            skipDigits()
        }
        if fractionEnd == integerEnd, !hasExponent,
            let integer = integerValue(integerStart..<integerEnd, negative: negative),
            integer != 0 || !negative
        {
            return .integer(integer)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard numbersBeyondRangeAreInfinite || Double(text)?.isFinite == true else {
            throw error(at: start, "number out of range")
        }
        return .number(JSONNumber(unchecked: text))
    }

    private func isDigit(at offset: Int) -> Bool {
        offset < bytes.count && bytes[offset] &- UInt8(ascii: "0") < 10
    }

    private mutating func skipDigits() {
        while isDigit(at: index) { index += 1 }
    }

    private func digit(at offset: Int) -> Int { Int(bytes[offset] &- UInt8(ascii: "0")) }

    /// The digits in `range` as an `Int`, or nil when they overflow it.
    private func integerValue(_ range: Range<Int>, negative: Bool) -> Int? {
        var value = 0
        for offset in range {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative
                ? shifted.subtractingReportingOverflow(digit(at: offset))
                : shifted.addingReportingOverflow(digit(at: offset))
            if overflow || overflow2 { return nil }
            value = next
        }
        return value
    }
}
