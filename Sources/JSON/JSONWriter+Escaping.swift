extension JSONWriter {
    /// Appends `text` quoted and escaped. Runs of bytes that need no escape are
    /// copied in one step.
    mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            var offset = 0
            while offset < utf8.count {
                let byte = utf8[offset]
                if byte >= 0x80 {
                    // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                    if byte == 0xE2, offset + 2 < utf8.count, utf8[offset + 1] == 0x80,
                        utf8[offset + 2] & 0xFE == 0xA8
                    {
                        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                        appendUnicodeEscape(utf8[offset + 2] == 0xA8 ? 0x2028 : 0x2029)
                        offset += 3
                        runStart = offset
                    } else {
                        offset += 1
                    }
                    continue
                }
                guard Self.needsEscape(byte) else {
                    offset += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                default: appendUnicodeEscape(UInt16(byte))
                }
                offset += 1
                runStart = offset
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// ASCII bytes written escaped: control characters, `"`, `\`, `<`, `>`, `&`.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
            true
        default:
            false
        }
    }

    private mutating func appendUnicodeEscape(_ unit: UInt16) {
        let hexDigits: StaticString = "0123456789abcdef"
        bytes.append(contentsOf: #"\u"#.utf8)
        hexDigits.withUTF8Buffer { digits in
            for shift in stride(from: 12, through: 0, by: -4) {
                bytes.append(digits[Int(unit >> UInt16(shift) & 0xF)])
            }
        }
    }

    /// Appends `value` in decimal without going through `String`.
    mutating func appendDecimal(_ value: Int) {
        Self.appendDecimal(value, to: &bytes)
    }

    /// Appends `value` in decimal to `bytes`, as `String(value)` writes it, without
    /// going through `String` (the HTML renderer writes numbers this way too).
    public static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            while magnitude > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }
}
