/// The rule that keeps spreadsheets from running an exported cell as a formula
/// (OWASP, "CSV Injection") while every cell still reads back as it was
/// (docs/FORMAT.md, "Formulas").
///
/// A cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return is
/// written after an apostrophe, which a spreadsheet shows as text and does not
/// run; so is a cell beginning with an apostrophe followed by one of those or by
/// another apostrophe. Reading takes one apostrophe off exactly those cells, so
/// `'Twas` stays `'Twas` and `'=1` (written `''=1`) stays `'=1`.
public enum CSVCell {
    /// The first characters that make a spreadsheet read a cell as a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` as it is written: after an apostrophe when a spreadsheet could run it.
    public static func guarded(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        if formulaStarts.contains(first) || (first == "'" && startsGuarded(text)) {
            return "'" + text
        }
        return text
    }

    /// `cell` as it was before ``guarded(_:)``.
    public static func unguarded(_ cell: String) -> String {
        cell.unicodeScalars.first == "'" && startsGuarded(cell) ? String(cell.unicodeScalars.dropFirst()) : cell
    }

    /// Whether `text`, which begins with an apostrophe, is followed by a
    /// formula's first character or another apostrophe.
    private static func startsGuarded(_ text: String) -> Bool {
        guard let second = text.unicodeScalars.dropFirst().first else { return false }
        return second == "'" || formulaStarts.contains(second)
    }
}
