/// Numbers as they appear in the HTML: CSS lengths and counts for people.
enum Formatting {
    /// A CSS pixel length: whole numbers without a fraction, others to two
    /// decimals; never an exponent. Values outside 0...100,000 are clamped, and
    /// a value that is not finite gives nil (the caller then omits it).
    static func cssPixels(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        let clamped = min(max(value, 0), 100_000)
        let hundredths = Int((clamped * 100).rounded())
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        let digits = fraction < 10 ? "0\(fraction)" : String(fraction)
        return "\(whole).\(digits.hasSuffix("0") ? String(digits.dropLast()) : digits)"
    }

    /// `12345` as `12,345`.
    static func grouped(_ value: Int) -> String { groupedLiteral(String(value)) }

    /// A JSON number literal with its whole digits grouped (`-1234567.5` as
    /// `-1,234,567.5`); one with an exponent as it is.
    static func groupedLiteral(_ literal: String) -> String {
        guard !literal.contains(where: { $0 == "e" || $0 == "E" }) else { return literal }
        let negative = literal.hasPrefix("-")
        let digits = negative ? literal.dropFirst() : Substring(literal)
        let whole = digits.prefix { $0 != "." }
        var result = ""
        for (offset, digit) in whole.enumerated() {
            if offset > 0, (whole.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (negative ? "-" : "") + result + digits.dropFirst(whole.count)
    }

    /// `1 row`, `2 rows`, `1,000 rows`.
    static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(grouped(value)) \(value == 1 ? singular : plural)"
    }
}
