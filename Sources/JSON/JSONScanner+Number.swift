extension JSONScanner {
    /// Reads `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// A number without fraction or exponent that fits in `Int` is an integer; any
    /// other is a `Double`; one outside `Double`'s finite range is refused, or
    /// read as ±infinity when `numbersBeyondRangeAreInfinite`.
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
        /// The offset of the `e`, when there is an exponent.
        var exponentStart: Int?
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            exponentStart = index
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(at: index) else { throw error("expected a digit in the exponent of number") }
            skipDigits()
        }
        if fractionEnd == integerEnd, exponentStart == nil,
            let integer = integerValue(integerStart..<integerEnd, negative: negative)
        {
            return .integer(integer)
        }
        if let fast = fastDouble(integerStart..<integerEnd, fractionEnd: fractionEnd, exponentStart: exponentStart) {
            return .double(negative ? -fast : fast)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        let double = Double(text) ?? (negative ? -.infinity : .infinity)
        guard double.isFinite || numbersBeyondRangeAreInfinite else {
            throw error(at: start, "number out of range")
        }
        return .double(double)
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

    /// Clinger's fast path: when the significand has at most 15 digits and the decimal
    /// exponent is at most 22 in size, one correctly rounded multiplication or
    /// division of two exact doubles gives the correctly rounded value.
    private func fastDouble(_ integer: Range<Int>, fractionEnd: Int, exponentStart: Int?) -> Double? {
        var significand = 0
        var digits = 0
        for offset in integer {
            significand = significand * 10 + digit(at: offset)
            if significand != 0 { digits += 1 }
            if digits > 15 { return nil }
        }
        var fractionDigits = 0
        if fractionEnd > integer.upperBound {
            for offset in (integer.upperBound + 1)..<fractionEnd {
                significand = significand * 10 + digit(at: offset)
                if significand != 0 { digits += 1 }
                fractionDigits += 1
                if digits > 15 { return nil }
            }
        }
        guard digits <= 15 else { return nil }
        var exponent = 0
        if let exponentStart {
            var offset = exponentStart + 1
            let negativeExponent = bytes[offset] == UInt8(ascii: "-")
            if !isDigit(at: offset) { offset += 1 }
            guard index - offset <= 4 else { return nil }
            for position in offset..<index { exponent = exponent * 10 + digit(at: position) }
            if negativeExponent { exponent = -exponent }
        }
        exponent -= fractionDigits
        guard (-22...22).contains(exponent) else { return nil }
        let value = Double(significand)
        return exponent < 0 ? value / Self.powersOfTen[-exponent] : value * Self.powersOfTen[exponent]
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
