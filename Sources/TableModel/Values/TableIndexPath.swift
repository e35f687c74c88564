/// The position of a row: a section index and a row index within it, both zero-based.
///
/// UIKit's `IndexPath(row:section:)`; named apart from Foundation's `IndexPath`
/// so that both can be imported together. In JSON it is the pair `[section, row]`.
public struct TableIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var section: Int
    public var row: Int

    public init(row: Int, section: Int) {
        self.section = section
        self.row = row
    }

    public init(_ section: Int, _ row: Int) {
        self.section = section
        self.row = row
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `[0, 4]`, the form UIKit's messages and our JSON use.
    public var description: String { "[\(section), \(row)]" }
}
