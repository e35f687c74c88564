import TableModel

/// One row inserted, deleted and moved by index in a section of `rows` rows,
/// through `Table.apply(_:)`, the path every edit request takes.
enum EditBench {
    static func run(rows: Int, operations: Int, rounds: Int) {
        var table = Table(
            id: "bench",
            sections: [
                Section(id: "s", rows: (0..<rows).map { Row(id: "r\($0)", text: "Row \($0)") })
            ])
        var random = SplitMix(state: UInt64(rows))
        var serial = 0
        for _ in 0..<rounds {
            let insert = measure {
                for _ in 0..<operations {
                    let count = table.sections[0].rows.count
                    serial += 1
                    let row = Row(id: "n\(serial)", text: "New \(serial)")
                    apply(
                        Batch(insertRows: [
                            .init(at: TableIndexPath(0, Int.random(in: 0...count, using: &random)), row: row)
                        ]), to: &table)
                }
            }
            let delete = measure {
                for _ in 0..<operations {
                    let count = table.sections[0].rows.count
                    apply(Batch(deleteRows: [TableIndexPath(0, Int.random(in: 0..<count, using: &random))]), to: &table)
                }
            }
            let move = measure {
                for _ in 0..<operations {
                    let count = table.sections[0].rows.count
                    let from = TableIndexPath(0, Int.random(in: 0..<count, using: &random))
                    let to = TableIndexPath(0, Int.random(in: 0..<count, using: &random))
                    apply(Batch(moveRows: [.init(from: from, to: to)]), to: &table)
                }
            }
            report(
                "edit",
                [
                    ("rows", rows),
                    ("insert_ns", insert / operations),
                    ("delete_ns", delete / operations),
                    ("move_ns", move / operations),
                ])
        }
    }

    private static func apply(_ batch: Batch, to table: inout Table) {
        do {
            _ = try table.apply(batch)
        } catch {
            fatalError("refused: \(error)")
        }
    }
}
