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
        let tenth = rows / 10
        return makeSnapshots(
            rows: rows, sections: sections, deletes: tenth, inserts: tenth, moves: tenth, updates: tenth)
    }

    /// `rows` rows in `sections` sections, then the given numbers of random
    /// deletes, content changes, moves (some across sections) and inserts.
    static func makeSnapshots(rows: Int, sections: Int, deletes: Int, inserts: Int, moves: Int, updates: Int)
        -> Snapshots
    {
        let perSection = rows / sections
        var content = (0..<sections).map { s in
            (0..<perSection).map { r in Row(id: "r\(s * perSection + r)", text: "Row \(s * perSection + r)") }
        }
        let old = table(content)
        var random = SplitMix(state: UInt64(rows))
        func randomPosition(inserting: Bool) -> (Int, Int) {
            while true {
                let s = Int.random(in: 0..<sections, using: &random)
                let count = content[s].count + (inserting ? 1 : 0)
                if count > 0 { return (s, Int.random(in: 0..<count, using: &random)) }
            }
        }
        for _ in 0..<deletes {
            let (s, r) = randomPosition(inserting: false)
            content[s].remove(at: r)
        }
        for _ in 0..<updates {
            let (s, r) = randomPosition(inserting: false)
            content[s][r].text += " (changed)"
        }
        var moved: [Row] = []
        for _ in 0..<moves {
            let (s, r) = randomPosition(inserting: false)
            moved.append(content[s].remove(at: r))
        }
        for row in moved {
            let (s, r) = randomPosition(inserting: true)
            content[s].insert(row, at: r)
        }
        for serial in 0..<inserts {
            let (s, r) = randomPosition(inserting: true)
            content[s].insert(Row(id: "n\(serial)", text: "New \(serial)"), at: r)
        }
        return Snapshots(old: old, new: table(content))
    }

    /// The six shapes of issue 17's diff target: rows, sections, and how many rows
    /// are deleted, inserted, moved and changed in content.
    struct Shape {
        let name: String
        let rows: Int
        let sections: Int
        let deletes: Int
        let inserts: Int
        let moves: Int
        let updates: Int

        /// The same shape with every count divided by `divisor`.
        func scaled(by divisor: Int) -> Shape {
            Shape(
                name: name, rows: rows / divisor, sections: max(1, min(sections, rows / divisor / 10)),
                deletes: deletes / divisor, inserts: inserts / divisor, moves: moves / divisor,
                updates: updates / divisor)
        }

        var changes: Int { deletes + inserts + 2 * moves }
    }

    static let shapes = [
        Shape(name: "5k-delete-insert", rows: 5_000, sections: 1, deletes: 500, inserts: 500, moves: 0, updates: 0),
        Shape(
            name: "100k-delete-insert", rows: 100_000, sections: 1, deletes: 10_000, inserts: 10_000, moves: 0,
            updates: 0),
        Shape(
            name: "100k-move-update", rows: 100_000, sections: 1, deletes: 0, inserts: 0, moves: 10_000, updates: 10_000
        ),
        Shape(
            name: "100x1000-mixed", rows: 100_000, sections: 100, deletes: 10_000, inserts: 10_000, moves: 10_000,
            updates: 10_000),
        Shape(
            name: "100k-mixed", rows: 100_000, sections: 1, deletes: 10_000, inserts: 10_000, moves: 10_000,
            updates: 10_000),
        Shape(
            name: "1M-mixed-1%", rows: 1_000_000, sections: 1, deletes: 10_000, inserts: 10_000, moves: 10_000,
            updates: 10_000),
    ]

    /// Most changes Swift's `difference(from:)` is given: it is Myers' algorithm,
    /// O((N+M)·D) time and O(D²) memory, so a shape with more changes is run against
    /// it scaled down until it has at most this many.
    static let swiftChanges = 2_000

    /// Each shape, `rounds` times in turn (the shapes take turns, as the frozen
    /// and the current diff do within a shape): thread CPU of the current
    /// `SnapshotDiff`, of the frozen copy of the previous one, and of Swift's
    /// `difference(from:).inferringMoves()` on the flattened ids, the last at a
    /// size it can take (see `swiftChanges`). `divisor` shrinks every shape, to try
    /// the benchmark quickly.
    static func runShapes(rounds: Int, divisor: Int) {
        let prepared = shapes.map { shape -> (Shape, Snapshots, Snapshots, Shape) in
            let full = shape.scaled(by: divisor)
            let swiftShape = full.scaled(by: max(1, (full.changes + swiftChanges - 1) / swiftChanges))
            return (full, snapshots(full), snapshots(swiftShape), swiftShape)
        }
        for _ in 0..<rounds {
            for (shape, full, small, swiftShape) in prepared {
                var batches: [Batch] = []
                var frozenBatches: [Batch] = []
                let current = measure { batches = SnapshotDiff.batches(from: full.old, to: full.new) }
                let frozen = measure { frozenBatches = FrozenSnapshotDiff.batches(from: full.old, to: full.new) }
                check(batches, full)
                check(frozenBatches, full)
                let oldIDs = small.old.sections.flatMap { $0.rows.map { $0.id ?? "" } }
                let newIDs = small.new.sections.flatMap { $0.rows.map { $0.id ?? "" } }
                var changes = 0
                let swift = measure { changes = newIDs.difference(from: oldIDs).inferringMoves().count }
                let currentSmall = measure { _ = SnapshotDiff.batches(from: small.old, to: small.new) }
                report(
                    "diff_shape",
                    [
                        ("shape", shapes.firstIndex { $0.name == shape.name }!), ("rows", shape.rows),
                        ("sections", shape.sections),
                        ("current_ns", current), ("frozen_ns", frozen),
                        ("swift_rows", swiftShape.rows), ("swift_ns", swift), ("swift_changes", changes),
                        ("current_at_swift_rows_ns", currentSmall),
                    ])
            }
        }
    }

    private static func snapshots(_ shape: Shape) -> Snapshots {
        makeSnapshots(
            rows: shape.rows, sections: shape.sections, deletes: shape.deletes, inserts: shape.inserts,
            moves: shape.moves, updates: shape.updates)
    }

    /// Stops the benchmark if `batches` do not turn the old snapshot into the new one.
    private static func check(_ batches: [Batch], _ snapshots: Snapshots) {
        check(replay(batches, on: snapshots.old), snapshots)
    }

    private static func check(_ applied: Table, _ snapshots: Snapshots) {
        precondition(applied.sections.map { Array($0.rows) } == snapshots.new.sections.map { Array($0.rows) })
    }

    /// `table` after `batches`; stops the benchmark if one is refused.
    private static func replay(_ batches: [Batch], on table: Table) -> Table {
        var applied = table
        for batch in batches {
            do {
                _ = try applied.apply(batch)
            } catch {
                fatalError("refused: \(error)")
            }
        }
        return applied
    }

    static func run(rows: Int, sections: Int, rounds: Int, swiftDifference: Bool) {
        let snapshots = makeSnapshots(rows: rows, sections: sections)
        let oldIDs = snapshots.old.sections.flatMap { $0.rows.map { $0.id ?? "" } }
        let newIDs = snapshots.new.sections.flatMap { $0.rows.map { $0.id ?? "" } }
        for _ in 0..<rounds {
            var batches: [Batch] = []
            let diff = measure { batches = SnapshotDiff.batches(from: snapshots.old, to: snapshots.new) }
            var applied = snapshots.old
            let apply = measure { applied = replay(batches, on: snapshots.old) }
            check(applied, snapshots)
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
