import TableModel
import WebTableViewClient

/// The follower's cost of one published change on a mirror of `rows` rows in
/// one section (`TableMirror.follow`, what `TableFollower` runs per event),
/// while the app holds the previous update's table, as a data source does.
/// Reload, insert, delete and move of one row, each `operations` times.
enum FollowBench {
    static func run(rows: Int, operations: Int, rounds: Int) {
        var mirror = TableMirror(
            Table(
                id: "bench", sections: [Section(id: "s", rows: (0..<rows).map { Row(id: "r\($0)", text: "Row \($0)") })]
            ))
        var random = SplitMix(state: UInt64(rows))
        var held = mirror.table
        var serial = 0
        func follow(_ batch: Batch) {
            guard case .applied(let updates) = mirror.follow(TableChange(version: mirror.version + 1, batch: batch)),
                let update = updates.last
            else {
                fatalError("not applied: \(batch)")
            }
            held = update.table
        }
        func randomRow(_ random: inout SplitMix) -> Int {
            Int.random(in: 0..<mirror.table.sections[0].rows.count, using: &random)
        }
        for _ in 0..<rounds {
            let reload = measure {
                for _ in 0..<operations {
                    let at = TableIndexPath(0, randomRow(&random))
                    let row = Row(id: mirror.table.row(at: at)?.id, text: "Reloaded \(serial)")
                    serial += 1
                    follow(Batch(reloadRows: [.init(at: at, row: row)]))
                }
            }
            let insert = measure {
                for _ in 0..<operations {
                    serial += 1
                    follow(
                        Batch(insertRows: [
                            .init(at: TableIndexPath(0, randomRow(&random)), row: Row(id: "n\(serial)", text: "New"))
                        ]))
                }
            }
            let delete = measure {
                for _ in 0..<operations { follow(Batch(deleteRows: [TableIndexPath(0, randomRow(&random))])) }
            }
            let move = measure {
                for _ in 0..<operations {
                    follow(
                        Batch(moveRows: [
                            .init(
                                from: TableIndexPath(0, randomRow(&random)), to: TableIndexPath(0, randomRow(&random)))
                        ]))
                }
            }
            report(
                "follow",
                [
                    ("rows", rows), ("reload_ns", reload / operations), ("insert_ns", insert / operations),
                    ("delete_ns", delete / operations), ("move_ns", move / operations),
                ])
        }
        _ = held
    }
}
