@testable import TableModel
import SeededRandom

/// Rows and randomness for the `RowList` tests.
enum RowListFixtures {
    /// A row that stands for the number `n`; `number(of:)` reads it back.
    static func row(_ n: Int) -> Row { Row(indentationLevel: n) }

    static func number(of row: Row) -> Int { row.indentationLevel }

    static func rows(_ numbers: Range<Int>) -> [Row] { numbers.map(row) }

    /// The numbers of `list`'s rows, read by iteration.
    static func numbers(_ list: RowList) -> [Int] { list.map(number(of:)) }
}
