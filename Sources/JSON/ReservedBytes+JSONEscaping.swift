extension ReservedBytes {
    /// The most bytes ``appendJSONQuoted(_:)`` writes for `text`: its quotes, and
    /// six bytes for every byte of it (`\u001f` for a control character; U+2028,
    /// three bytes, becomes six).
    @inlinable
    public static func maximumJSONQuotedCount(_ text: String) -> Int {
        maximumJSONQuotedCount(utf8Count: text.utf8.count)
    }

    /// The same for text of `utf8Count` bytes.
    @inlinable
    public static func maximumJSONQuotedCount(utf8Count: Int) -> Int {
        2 + 6 * utf8Count
    }

    /// Appends `text` quoted and escaped as ``JSONWriter`` escapes strings: runs
    /// of bytes that need no escape are stored byte by byte without a check each.
    public mutating func appendJSONQuoted(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            write(atMost: Self.maximumJSONQuotedCount(utf8Count: utf8.count)) { output in
                output[0] = UInt8(ascii: "\"")
                var written = 1
                var offset = 0
                while offset < utf8.count {
                    let byte = utf8[offset]
                    if byte >= 0x80 {
                        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                        if byte == 0xE2, offset + 2 < utf8.count, utf8[offset + 1] == 0x80,
                            utf8[offset + 2] & 0xFE == 0xA8
                        {
                            written += Self.storeUnicodeEscape(
                                utf8[offset + 2] == 0xA8 ? 0x2028 : 0x2029, at: output + written)
                            offset += 3
                        } else {
                            output[written] = byte
                            written += 1
                            offset += 1
                        }
                        continue
                    }
                    offset += 1
                    guard Self.needsJSONEscape(byte) else {
                        output[written] = byte
                        written += 1
                        continue
                    }
                    let short: UInt8? =
                        switch byte {
                        case UInt8(ascii: "\""): UInt8(ascii: "\"")
                        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
                        case 0x0A: UInt8(ascii: "n")
                        case 0x0D: UInt8(ascii: "r")
                        case 0x09: UInt8(ascii: "t")
                        default: nil
                        }
                    if let short {
                        output[written] = UInt8(ascii: "\\")
                        output[written + 1] = short
                        written += 2
                    } else {
                        written += Self.storeUnicodeEscape(UInt16(byte), at: output + written)
                    }
                }
                output[written] = UInt8(ascii: "\"")
                return written + 1
            }
        }
    }

    /// ASCII bytes written escaped: control characters, `"`, `\`, `<`, `>`, `&`.
    @inline(__always)
    private static func needsJSONEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
            true
        default:
            false
        }
    }

    /// Stores `\uXXXX` for `unit` at `output`; answers 6, the bytes stored.
    private static func storeUnicodeEscape(_ unit: UInt16, at output: UnsafeMutablePointer<UInt8>) -> Int {
        let hexDigits: StaticString = "0123456789abcdef"
        output[0] = UInt8(ascii: "\\")
        output[1] = UInt8(ascii: "u")
        hexDigits.withUTF8Buffer { digits in
            for place in 0..<4 {
                output[2 + place] = digits[Int(unit >> UInt16(12 - 4 * place) & 0xF)]
            }
        }
        return 6
    }
}
