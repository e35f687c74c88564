import SeededRandom
@testable import TableModel

/// One random edit of a row list, made alike to the list and to an array of
/// its rows: a row replaced, inserted, removed (while more than one is left)
/// or moved, the new rows made by `row`.
enum RandomRowEdit {
    /// Makes 1,500 random edits of a list of 600 rows; every tenth step,
    /// calls `check` with the list and its rows as they are now, then with a
    /// copy taken up to 300 steps before and its rows as they were then.
    static func run(
        using random: inout SeededGenerator, row: (inout SeededGenerator) -> Row,
        check: (_ list: RowList, _ rows: [Row], _ label: String, _ random: inout SeededGenerator) -> Void
    ) {
        var rows = (0..<600).map { _ in row(&random) }
        var list = RowList(rows)
        var copy = (list: list, rows: rows)
        for step in 0..<1_500 {
            if step.isMultiple(of: 10) {
                check(list, rows, "step \(step)", &random)
                check(copy.list, copy.rows, "copy at step \(step)", &random)
            }
            if step.isMultiple(of: 300) { copy = (list, rows) }
            apply(to: &rows, &list, using: &random, row: row)
        }
    }

    static func apply(
        to rows: inout [Row], _ list: inout RowList, using random: inout SeededGenerator,
        row: (inout SeededGenerator) -> Row
    ) {
        let index = Int.random(in: 0..<rows.count, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            let row = row(&random)
            rows[index] = row
            list[index] = row
        case 1:
            let row = row(&random)
            rows.insert(row, at: index)
            list.insert(row, at: index)
        case 2 where rows.count > 1:
            rows.remove(at: index)
            list.remove(at: index)
        default:
            let to = Int.random(in: 0..<rows.count, using: &random)
            rows.insert(rows.remove(at: index), at: to)
            list.move(from: index, to: to)
        }
    }
}
