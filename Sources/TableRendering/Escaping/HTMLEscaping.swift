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

    /// Appends `text` escaped as ``escape(_:)`` escapes it: runs of bytes that need
    /// no escape are copied in one step. Nothing for nil.
    static func append(_ text: String?, to bytes: inout [UInt8]) {
        guard var text else { return }
        text.withUTF8 { append($0, to: &bytes) }
    }

    static func append(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            // Every special byte is below `?`: one comparison passes letters, digits
            // above `>` and every byte of a multi-byte sequence.
            guard byte <= UInt8(ascii: ">") else { continue }
            let reference: StaticString
            switch byte {
            case UInt8(ascii: "&"): reference = "&amp;"
            case UInt8(ascii: "<"): reference = "&lt;"
            case UInt8(ascii: ">"): reference = "&gt;"
            case UInt8(ascii: "\""): reference = "&quot;"
            case UInt8(ascii: "'"): reference = "&#39;"
            default: continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            reference.withUTF8Buffer { bytes.append(contentsOf: $0) }
            runStart = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }

    /// Appends `escaped`, text this type escaped already, as swift-mustache's
    /// `{{name}}` escapes it once more: no `<`, `>`, `"` or `'` is left in it, and
    /// every `&` starts a reference, so only the `&` change (to `&amp;`).
    static func appendEscapedAgain(_ escaped: [UInt8], to bytes: inout [UInt8]) {
        for byte in escaped {
            if byte == UInt8(ascii: "&") {
                bytes.append(contentsOf: "&amp;".utf8)
            } else {
                bytes.append(byte)
            }
        }
    }
}
