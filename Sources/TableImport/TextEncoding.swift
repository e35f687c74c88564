/// The encodings a file of records may come in (`--encoding`, `?encoding=`;
/// docs/FORMAT.md, "From a CSV file"). A byte order mark wins over the choice:
/// UTF-16 (either order) is read as UTF-16, and UTF-8's mark is dropped.
public enum TextEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    /// ISO 8859-1: each byte is the code point of the same number.
    case latin1 = "latin-1"
    /// Windows-1252: Latin-1 with printable characters in 0x80–0x9F (`€`, `“`, `—`…).
    case windows1252 = "windows-1252"
    case utf16 = "utf-16"

    /// The encoding `name` names, in any case, with the usual aliases
    /// (`utf8`, `iso-8859-1`, `latin1`, `cp1252`, `utf16`).
    public init?(named name: String) {
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "utf-8", "utf8": self = .utf8
        case "latin-1", "latin1", "iso-8859-1", "iso8859-1": self = .latin1
        case "windows-1252", "cp1252", "cp-1252": self = .windows1252
        case "utf-16", "utf16": self = .utf16
        default: return nil
        }
    }

    /// `bytes` as UTF-8, without a byte order mark. O(n).
    ///
    /// UTF-8 is checked later, record by record, so that a bad byte is reported
    /// with its line; UTF-16 without a mark is read little-endian, and an
    /// unpaired surrogate becomes U+FFFD.
    public func utf8(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.starts(with: [0xFF, 0xFE]) { return Self.utf16(bytes.dropFirst(2), bigEndian: false) }
        if bytes.starts(with: [0xFE, 0xFF]) { return Self.utf16(bytes.dropFirst(2), bigEndian: true) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        switch self {
        case .utf8: return bytes
        case .utf16: return Self.utf16(bytes[...], bigEndian: false)
        case .latin1, .windows1252:
            guard bytes.contains(where: { $0 >= 0x80 }) else { return bytes }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + bytes.count / 8)
            for byte in bytes {
                let scalar =
                    self == .windows1252 && (0x80...0x9F).contains(byte)
                    ? Self.windows1252High[Int(byte - 0x80)] : Unicode.Scalar(byte)
                output.append(contentsOf: String(Character(scalar)).utf8)
            }
            return output
        }
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// Windows-1252's characters for 0x80–0x9F; the five it leaves undefined
    /// are read as the C1 controls of the same number, as Latin-1 reads them.
    private static let windows1252High: [Unicode.Scalar] = [
        "\u{20AC}", "\u{81}", "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", "\u{8D}", "\u{017D}", "\u{8F}",
        "\u{90}", "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", "\u{9D}", "\u{017E}", "\u{0178}",
    ]
}
