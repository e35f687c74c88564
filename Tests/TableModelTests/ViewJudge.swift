import JSON
@testable import TableModel

/// A second reading of a view (docs/API.md, "Views"), written from the
/// document alone and deliberately plain, to judge `TableQuery.view(of:)` and
/// the live views by: it shares no code with `RowSelection`, `ViewValue`,
/// `TextFolding` or `TableQuery+View.swift`, keeps no labels, sorts by
/// insertion and compares numbers as decimal digit strings.
enum ViewJudge {
    /// A row's value for a key: a number (its exact decimal value and its
    /// literal) or a text.
    enum Value {
        case number(Decimal, literal: String)
        case text(String)

        var display: String {
            switch self {
            case .number(_, let literal): literal
            case .text(let text): text
            }
        }
    }

    /// A number as sign, digits and point: 0.DIGITS × 10^point, no zero
    /// leading or trailing the digits; zero has no digits and no sign.
    struct Decimal {
        var negative: Bool
        var digits: [Character]
        var point: Int

        /// The value of a JSON number literal (`-12.50e3`).
        init?(literal: String) {
            guard JSONValue.number(literal: literal) != nil else { return nil }
            var text = Substring(literal)
            negative = text.first == "-"
            if negative { text = text.dropFirst() }
            var exponent = 0
            if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
                exponent = Int(text[text.index(after: e)...].replacing("+", with: ""))!
                text = text[..<e]
            }
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            digits = Array(parts[0]) + (parts.count > 1 ? Array(parts[1]) : [])
            point = parts[0].count + exponent
            while digits.first == "0" {
                digits.removeFirst()
                point -= 1
            }
            while digits.last == "0" { digits.removeLast() }
            if digits.isEmpty { (negative, point) = (false, 0) }
        }

        static func compare(_ a: Decimal, _ b: Decimal) -> Ordering {
            if a.negative != b.negative { return a.negative ? .before : .after }
            let magnitude: Ordering
            if a.digits.isEmpty || b.digits.isEmpty {
                magnitude = a.digits.isEmpty == b.digits.isEmpty ? .same : (a.digits.isEmpty ? .before : .after)
            } else if a.point != b.point {
                magnitude = a.point < b.point ? .before : .after
            } else {
                let (x, y) = (String(a.digits), String(b.digits))
                magnitude = x == y ? .same : (x < y ? .before : .after)
            }
            return a.negative ? flip(magnitude) : magnitude
        }
    }

    static func flip(_ order: Ordering) -> Ordering { order == .before ? .after : (order == .after ? .before : .same) }

    // MARK: Text

    /// Case and diacritics ignored: lowercased, marks dropped, the Latin
    /// letters with marks the test tables use read as their base letter.
    static func fold(_ text: String) -> String {
        let bases: [Character: String] = [
            "à": "a", "á": "a", "â": "a", "ã": "a", "ä": "a", "å": "a", "ç": "c", "è": "e", "é": "e", "ê": "e",
            "ë": "e", "ì": "i", "í": "i", "î": "i", "ï": "i", "ñ": "n", "ò": "o", "ó": "o", "ô": "o", "õ": "o",
            "ö": "o", "ø": "o", "ù": "u", "ú": "u", "û": "u", "ü": "u", "ý": "y", "ÿ": "y", "ß": "ss", "æ": "ae",
            "œ": "oe",
        ]
        var folded = ""
        for scalar in text.unicodeScalars where !(0x300...0x36F).contains(scalar.value) {
            let lower = String(scalar).lowercased()
            folded += lower.count == 1 ? (bases[Character(lower)] ?? lower) : lower
        }
        return folded
    }

    /// A folded text as the Finder reads it: runs of digits, and single scalars.
    enum Piece {
        case digits(String)
        case scalar(UInt32)
    }

    static func pieces(_ folded: String) -> [Piece] {
        var pieces: [Piece] = []
        for scalar in folded.unicodeScalars {
            let digit = ("0"..."9").contains(Character(scalar))
            if digit, case .digits(let run)? = pieces.last {
                pieces[pieces.count - 1] = .digits(run + String(scalar))
            } else {
                pieces.append(digit ? .digits(String(scalar)) : .scalar(scalar.value))
            }
        }
        return pieces
    }

    /// Finder order: digit runs by value (then fewer leading zeros first),
    /// other scalars by code point, a text before any longer one it begins.
    static func finder(_ a: String, _ b: String) -> Ordering {
        let (x, y) = (pieces(fold(a)), pieces(fold(b)))
        for (p, q) in zip(x, y) {
            let order: Ordering
            switch (p, q) {
            case (.digits(let m), .digits(let n)):
                let (m0, n0) = (m.drop { $0 == "0" }, n.drop { $0 == "0" })
                if m0.count != n0.count {
                    order = m0.count < n0.count ? .before : .after
                } else if m0 != n0 {
                    order = m0 < n0 ? .before : .after
                } else {
                    order = m.count == n.count ? .same : (m.count < n.count ? .before : .after)
                }
            case (.digits(let m), .scalar(let s)): order = m.unicodeScalars.first!.value < s ? .before : .after
            case (.scalar(let s), .digits(let n)): order = s < n.unicodeScalars.first!.value ? .before : .after
            case (.scalar(let s), .scalar(let t)): order = s == t ? .same : (s < t ? .before : .after)
            }
            if order != .same { return order }
        }
        return x.count == y.count ? .same : (x.count < y.count ? .before : .after)
    }

    // MARK: Values, filters, order

    static func value(_ key: ViewKey, of row: Row, in section: Section) -> Value? {
        switch key {
        case .text: return .text(row.text)
        case .detail: return row.detail.map(Value.text)
        case .id: return row.id.map(Value.text)
        case .section: return section.id.map(Value.text)
        case .field(let name):
            switch row.fields[name] {
            case .string(let text): return .text(text)
            case .bool(let flag): return .text(flag ? "true" : "false")
            case .integer(let number): return .number(Decimal(literal: "\(number)")!, literal: "\(number)")
            case .number(let number): return .number(Decimal(literal: number.literal)!, literal: number.literal)
            default: return nil
            }
        }
    }

    /// Numbers by value, before texts; texts in Finder order.
    static func compare(_ a: Value, _ b: Value) -> Ordering {
        switch (a, b) {
        case (.number(let x, _), .number(let y, _)): Decimal.compare(x, y)
        case (.number, .text): .before
        case (.text, .number): .after
        case (.text(let x), .text(let y)): finder(x, y)
        }
    }

    /// Missing values last in either direction.
    static func compare(_ a: Value?, _ b: Value?, descending: Bool) -> Ordering {
        switch (a, b) {
        case (nil, nil): .same
        case (nil, _): .after
        case (_, nil): .before
        case (let a?, let b?): descending ? flip(compare(a, b)) : compare(a, b)
        }
    }

    /// A filter: a number against a number value by value, anything else as
    /// folded text; a row without a value passes `ne` alone.
    static func holds(_ filter: ViewFilter, _ row: Row, in section: Section) -> Bool {
        guard let value = value(filter.key, of: row, in: section) else { return filter.op == .ne }
        if filter.op == .prefix { return Array(fold(value.display).utf8).starts(with: fold(filter.value).utf8) }
        let order: Ordering
        if case .number(let x, _) = value, let y = Decimal(literal: filter.value) {
            order = Decimal.compare(x, y)
        } else {
            order = finder(value.display, filter.value)
        }
        return passing[filter.op]!.contains(order)
    }

    /// The orders of a row's value against a filter's that each operator lets through.
    static let passing: [ViewFilter.Operator: Set<Ordering>] = [
        .eq: [.same], .ne: [.before, .after], .lt: [.before], .lte: [.before, .same], .gt: [.after],
        .gte: [.same, .after],
    ]

    /// Each word found, folded, in the text, the detail or a string field.
    static func found(_ words: [String], in row: Row) -> Bool {
        let texts = [row.text, row.detail].compactMap { $0 } + row.fields.members.compactMap { $0.value.stringValue }
        return words.allSatisfy { word in
            let needle = Array(fold(word).utf8)
            return texts.contains { text in
                let hay = Array(fold(text).utf8)
                return hay.count >= needle.count
                    && (0...(hay.count - needle.count)).contains { Array(hay[$0..<($0 + needle.count)]) == needle }
            }
        }
    }
}

extension JSONValue {
    fileprivate var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
