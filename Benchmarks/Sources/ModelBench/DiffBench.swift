import TableModel

/// `PUT` of a snapshot: `rows` rows in `sections` sections, of which a tenth
/// are deleted, a tenth inserted, a tenth moved (some across sections) and a
/// tenth changed in content. Times `SnapshotDiff.batches(from:to:)` against
/// Swift's `difference(from:).inferringMoves()` on the flattened row ids.
enum DiffBench {
    struct Snapshots {
        let old: Table
        let new: Table
    }

    static func makeSnapshots(rows: Int, sections: Int) -> Snapshots {
        let perSection = rows / sections
        var content = (0..<sections).map { s in
            (0..<perSection).map { r in Row(id: "r\(s * perSection + r)", text: "Row \(s * perSection + r)") }
        }
        let old = table(content)
        var random = SplitMix(state: UInt64(rows))
        let tenth = rows / 10
        func randomPosition(inserting: Bool) -> (Int, Int) {
            while true {
                let s = Int.random(in: 0..<sections, using: &random)
                let count = content[s].count + (inserting ? 1 : 0)
                if count > 0 { return (s, Int.random(in: 0..<count, using: &random)) }
            }
        }
        for _ in 0..<tenth {
            let (s, r) = randomPosition(inserting: false)
            content[s].remove(at: r)
        }
        for _ in 0..<tenth {
            let (s, r) = randomPosition(inserting: false)
            content[s][r].text += " (changed)"
        }
        var moved: [Row] = []
        for _ in 0..<tenth {
            let (s, r) = randomPosition(inserting: false)
            moved.append(content[s].remove(at: r))
        }
        for row in moved {
            let (s, r) = randomPosition(inserting: true)
            content[s].insert(row, at: r)
        }
        for serial in 0..<tenth {
            let (s, r) = randomPosition(inserting: true)
            content[s].insert(Row(id: "n\(serial)", text: "New \(serial)"), at: r)
        }
        return Snapshots(old: old, new: table(content))
    }

    static func run(rows: Int, sections: Int, rounds: Int, swiftDifference: Bool) {
        let snapshots = makeSnapshots(rows: rows, sections: sections)
        let oldIDs = snapshots.old.sections.flatMap { $0.rows.map { $0.id ?? "" } }
        let newIDs = snapshots.new.sections.flatMap { $0.rows.map { $0.id ?? "" } }
        for _ in 0..<rounds {
            var batches: [Batch] = []
            let diff = measure { batches = SnapshotDiff.batches(from: snapshots.old, to: snapshots.new) }
            var applied = snapshots.old
            let apply = measure {
                for batch in batches {
                    do {
                        _ = try applied.apply(batch)
                    } catch {
                        fatalError("refused: \(error)")
                    }
                }
            }
            precondition(applied.sections.map { Array($0.rows) } == snapshots.new.sections.map { Array($0.rows) })
            var values = [("rows", rows), ("diff_ns", diff), ("apply_ns", apply), ("batches", batches.count)]
            if swiftDifference {
                var changes = 0
                let swift = measure { changes = newIDs.difference(from: oldIDs).inferringMoves().count }
                values += [("swift_ns", swift), ("swift_changes", changes)]
            }
            report("diff", values)
        }
    }

    private static func table(_ content: [[Row]]) -> Table {
        Table(id: "bench", sections: content.enumerated().map { Section(id: "s\($0.offset)", rows: $0.element) })
    }
}
