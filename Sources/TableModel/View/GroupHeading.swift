import JSON

/// How a view heads a group section (docs/API.md, "Views"): the one rule a
/// read and a live view's update both apply, from the group's first row in the
/// view's order. Text is headed as that row spells it, with its first letter as
/// index title; a number by its literal (the page formats it for the reader),
/// with the range it falls in as index title (`8M`: 8,000,000 up to 9,000,000);
/// a section of the table (`group=section`) by its own header and index title.
/// The value itself, as the row holds it, goes with the heading.
struct GroupHeading: Equatable {
    var header: String?
    var indexTitle: String?
    var value: JSONValue?

    /// The heading of rows without a value for the group's key: none.
    init() {}

    /// The heading of the group of `key` whose first row is `row` (of `section`).
    init(_ key: ViewKey, first row: Row, in section: Section) {
        guard let found = ViewValue(key, of: row, in: section) else { return }
        header = found.display
        switch (key, found.kind) {
        case (.section, _):
            let spelled = section.header ?? found.display
            header = spelled
            indexTitle = section.indexTitle ?? Self.letterTitle(ViewValue(text: spelled))
            value = .string(found.display)
        case (.field(let name), .number):
            indexTitle = Self.rangeTitle(found.display)
            value = row.fields[name]
        case (.field(let name), .text):
            indexTitle = Self.letterTitle(found)
            value = row.fields[name]
        default:
            indexTitle = Self.letterTitle(found)
            value = .string(found.display)
        }
    }

    /// A section of the group's rows under this heading, moved out of `rows` (left empty).
    func section(moving rows: inout [Row]) -> Section {
        var section = Section(rows: RowList(moving: &rows))
        head(&section)
        return section
    }

    /// Puts this heading on `section`, its rows kept.
    func head(_ section: inout Section) {
        section.header = header
        section.indexTitle = indexTitle
        section.groupValue = value
    }

    /// Whether `section` is headed so already.
    func heads(_ section: Section) -> Bool {
        section.header == header && section.indexTitle == indexTitle && section.groupValue == value
    }

    /// The first letter of a text, its marks dropped, uppercased; `#` for any
    /// other ASCII character (a digit, a sign, a space); none for empty text.
    static func letterTitle(_ value: ViewValue) -> String? {
        guard let first = value.display.first else { return nil }
        if let byte = value.folded.first, byte < 0x80 {
            let isLetter = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
            return isLetter ? String(UnicodeScalar(byte - 0x20)) : "#"
        }
        return String(first).uppercased()
    }

    /// The range a number (a JSON literal) falls in, named by its lower end in
    /// magnitude: its first digit at its place, with K, M, B or T for
    /// thousands to trillions (`7`, `40`, `900`, `8M`, `-2K`); `0` below 1 in
    /// magnitude, `1E15` and up from 10^15. Read from the literal's digits, so
    /// exact at any size. Equal titles side by side are one entry of the index.
    static func rangeTitle(_ literal: String) -> String {
        var text = Substring(literal)
        let sign = text.first == "-" ? "-" : ""
        if !sign.isEmpty { text = text.dropFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            // Clamped: a place beyond either bound is titled alike, and no sum overflows.
            let power = text[text.index(after: e)...].drop { $0 == "+" }
            let written = Int(power) ?? (power.hasPrefix("-") ? -1_000_000 : 1_000_000)
            exponent = min(max(written, -1_000_000), 1_000_000)
            text = text[..<e]
        }
        let whole = text.prefix { $0 != "." }
        // The place of the first digit that is not zero: 0 for units, -1 for tenths.
        var place = whole.count - 1 + exponent
        var digits = text.filter { $0 != "." }[...]
        while digits.first == "0" {
            digits = digits.dropFirst()
            place -= 1
        }
        guard let first = digits.first, let digit = first.wholeNumberValue, place >= 0 else { return "0" }
        guard place < 15 else { return "\(sign)\(digit)E\(place)" }
        let unit = place / 3
        return sign + String(digit) + String(repeating: "0", count: place - unit * 3) + ["", "K", "M", "B", "T"][unit]
    }
}
