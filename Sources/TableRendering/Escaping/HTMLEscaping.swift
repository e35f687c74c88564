/// HTML escaping for text and quoted attribute values.
///
/// swift-mustache's own `{{name}}` escaping compares whole `Character`s, so a quote
/// followed by a combining mark (`"\u{301}`) is one grapheme that it leaves
/// unescaped, which would close an attribute. Every value the renderer hands to a
/// template is therefore escaped here, byte by byte, and templates print it with
/// `{{{name}}}`.
import JSON

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

    /// The most bytes escaping `count` bytes writes: `"` becomes `&quot;`.
    static func maximumEscapedCount(_ count: Int) -> Int { 6 * count }

    /// The most bytes ``appendEscapedAgain(_:to:)`` writes for `count` bytes of
    /// text escaped once (`&quot;`, six bytes for one, becomes `&amp;quot;`).
    static func maximumEscapedAgainCount(_ count: Int) -> Int { 10 * count }
}

extension ReservedBytes {
    /// Appends `text` escaped as ``HTMLEscaping/escape(_:)`` escapes it. Nothing for nil.
    mutating func appendHTMLEscaped(_ text: String?) {
        guard var text else { return }
        text.withUTF8 { appendHTMLEscaped($0) }
    }

    mutating func appendHTMLEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        write(atMost: HTMLEscaping.maximumEscapedCount(utf8.count)) { output in
            var written = 0
            for byte in utf8 {
                // Every special byte is below `?`: one comparison passes letters, digits
                // above `>` and every byte of a multi-byte sequence.
                guard byte <= UInt8(ascii: ">") else {
                    output[written] = byte
                    written += 1
                    continue
                }
                let reference: StaticString
                switch byte {
                case UInt8(ascii: "&"): reference = "&amp;"
                case UInt8(ascii: "<"): reference = "&lt;"
                case UInt8(ascii: ">"): reference = "&gt;"
                case UInt8(ascii: "\""): reference = "&quot;"
                case UInt8(ascii: "'"): reference = "&#39;"
                default:
                    output[written] = byte
                    written += 1
                    continue
                }
                (output + written).initialize(from: reference.utf8Start, count: reference.utf8CodeUnitCount)
                written += reference.utf8CodeUnitCount
            }
            return written
        }
    }

    /// Appends `escaped`, text ``HTMLEscaping`` escaped already, as swift-mustache's
    /// `{{name}}` escapes it once more: no `<`, `>`, `"` or `'` is left in it, and
    /// every `&` starts a reference, so only the `&` change (to `&amp;`).
    mutating func appendEscapedAgain(_ escaped: [UInt8]) {
        // Four more bytes for each `&`: at most ten for a byte of the text escaped once.
        let ampersands = escaped.reduce(0) { $0 + ($1 == UInt8(ascii: "&") ? 1 : 0) }
        write(atMost: escaped.count + 4 * ampersands) { output in
            var written = 0
            for byte in escaped {
                if byte == UInt8(ascii: "&") {
                    let reference: StaticString = "&amp;"
                    (output + written).initialize(from: reference.utf8Start, count: reference.utf8CodeUnitCount)
                    written += reference.utf8CodeUnitCount
                } else {
                    output[written] = byte
                    written += 1
                }
            }
            return written
        }
    }
}
