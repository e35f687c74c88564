/// HTML escaping for text and quoted attribute values.
///
/// swift-mustache's own `{{name}}` escaping compares whole `Character`s, so a quote
/// followed by a combining mark (`"\u{301}`) is one grapheme that it leaves
/// unescaped, which would close an attribute. Every value the renderer hands to a
/// template is therefore escaped here, byte by byte, and templates print it with
/// `{{{name}}}`.
enum HTMLEscaping {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references.
    ///
    /// Works on UTF-8 bytes: the five characters are ASCII, and no byte of a
    /// multi-byte UTF-8 sequence is ASCII, so no combining mark can hide one.
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        let needsEscaping =
            utf8.withContiguousStorageIfAvailable { bytes in
                bytes.contains(where: isSpecial)
            } ?? utf8.contains(where: isSpecial)
        guard needsEscaping else { return text }

        var output: [UInt8] = []
        output.reserveCapacity(utf8.count + 32)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): output.append(contentsOf: "&#39;".utf8)
            default: output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            true
        default:
            false
        }
    }
}
