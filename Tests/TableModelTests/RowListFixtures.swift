@testable import TableModel

/// Rows and randomness for the `RowList` tests.
enum RowListFixtures {
    /// A row that stands for the number `n`; `number(of:)` reads it back.
    static func row(_ n: Int) -> Row { Row(indentationLevel: n) }

    static func number(of row: Row) -> Int { row.indentationLevel }

    static func rows(_ numbers: Range<Int>) -> [Row] { numbers.map(row) }

    /// The numbers of `list`'s rows, read by iteration.
    static func numbers(_ list: RowList) -> [Int] { list.map(number(of:)) }
}

/// SplitMix64: a small seeded generator, so a failing random test can be replayed.
struct RowListSeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
