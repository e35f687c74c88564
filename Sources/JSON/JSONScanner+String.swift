extension JSONScanner {
    /// Reads a string starting at its opening quote and ending after its closing one.
    ///
    /// Strings without escapes (the common case) are copied straight from the input
    /// after their UTF-8 is validated; others are rebuilt in `scratch`.
    mutating func readString() throws(JSONParseError) -> String {
        let quote = index
        index += 1
        let contentStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") {
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
                return try readEscapedString(from: quote)
            }
            try skipCharacter(byte)
        }
        throw error(at: quote, "unterminated string")
    }

    /// Continues a string at its first backslash, appending its bytes to `scratch`.
    private mutating func readEscapedString(from quote: Int) throws(JSONParseError) -> String {
        var runStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: scratch, as: UTF8.self)
                }
                try readEscape()
                runStart = index
                continue
            }
            try skipCharacter(byte)
        }
        throw error(at: quote, "unterminated string")
    }

    /// Steps over one unescaped character of a string, validating it.
    private mutating func skipCharacter(_ byte: UInt8) throws(JSONParseError) {
        if byte < 0x20 {
            throw error("unescaped control character \(Self.codePoint(UInt32(byte))) in string")
        }
        if byte < 0x80 {
            index += 1
        } else {
            index += try utf8SequenceLength(at: index)
        }
    }

    /// The length of the well-formed UTF-8 sequence at `offset` (Unicode 15, table 3-7):
    /// no overlong forms, no encoded surrogates, nothing above U+10FFFF.
    private func utf8SequenceLength(at offset: Int) throws(JSONParseError) -> Int {
        let lead = bytes[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw error(at: offset, "invalid UTF-8")
        }
        guard offset + length <= bytes.count, secondRange.contains(bytes[offset + 1]) else {
            throw error(at: offset, "invalid UTF-8")
        }
        for continuation in (offset + 2)..<(offset + length) where bytes[continuation] & 0xC0 != 0x80 {
            throw error(at: offset, "invalid UTF-8")
        }
        return length
    }

    /// Reads one escape sequence starting at its backslash into `scratch`.
    private mutating func readEscape() throws(JSONParseError) {
        let start = index
        guard index + 1 < bytes.count else { throw error(at: bytes.count, "unexpected end of input in string") }
        let escaped = bytes[index + 1]
        index += 2
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4(escapeStart: start)
            var scalar = unit
            if (0xD800...0xDBFF).contains(unit) {
                let low = index
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error(at: start, "lone surrogate \\u\(Self.hex(unit)) in string") }
                index += 2
                let second = try readHex4(escapeStart: low)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw error(at: start, "lone surrogate \\u\(Self.hex(unit)) in string")
                }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (second - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw error(at: start, "lone surrogate \\u\(Self.hex(unit)) in string")
            }
            appendUTF8(scalar)
        default:
            throw error(at: start, "invalid escape sequence in string")
        }
    }

    private mutating func readHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else {
            throw error(at: escapeStart, "invalid \\u escape: expected 4 hex digits")
        }
        var value: UInt32 = 0
        for offset in index..<(index + 4) {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(at: escapeStart, "invalid \\u escape: expected 4 hex digits")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `U+000A`.
    static func codePoint(_ value: UInt32) -> String { "U+" + hex(value) }
}
