/// Text from the network made safe to write in one log line.
public enum LogText {
    /// `text` with every control character (C0, DEL, C1, and the Unicode line
    /// and paragraph separators) written as `\u{XX}`, and `\` as `\\`: a path
    /// such as `/x%0aFAKE` cannot start a forged line, nor `%1b` send a raw
    /// escape sequence to a terminal.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else {
            return text
        }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                escaped += scalar == "\\" ? "\\\\" : "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x5C, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}
