/// The byte between a CSV file's fields: given, or found from the file.
public enum CSVDelimiter {
    static let comma = UInt8(ascii: ",")
    static let semicolon = UInt8(ascii: ";")
    static let tab = UInt8(ascii: "\t")

    /// `--delimiter`'s value: `tab` (or `\t`), or one ASCII character other
    /// than a quote or a line break; nil for anything else.
    public static func named(_ text: String) -> UInt8? {
        if text == "tab" || text == "\\t" { return tab }
        guard text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80, byte != UInt8(ascii: "\""),
            byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r")
        else { return nil }
        return byte
    }

    /// A tab for a file named `.tsv` or `.tab`; otherwise whichever of comma,
    /// semicolon and tab the header row (outside quotes) holds most of, a
    /// comma when it holds none.
    public static func sniff(_ bytes: [UInt8], name: String) -> UInt8 {
        let lowered = name.lowercased()
        if lowered.hasSuffix(".tsv") || lowered.hasSuffix(".tab") { return tab }
        var counts: [UInt8: Int] = [comma: 0, semicolon: 0, tab: 0]
        var inQuotes = false
        for byte in bytes {
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if !inQuotes && (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")) {
                break
            } else if !inQuotes, counts[byte] != nil {
                counts[byte, default: 0] += 1
            }
        }
        return [comma, semicolon, tab].max { counts[$0, default: 0] < counts[$1, default: 0] } ?? comma
    }
}
