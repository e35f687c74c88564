import SeededRandom
import Testing
@testable import TableModel

@Suite("Views: the labels of the rows a batch leaves in place follow it as the batch engine moves them")
struct LabelShiftTests {
    @Test("random batches of row deletes, inserts, moves and reloads", arguments: PropertyRuns.seeds(4))
    func randomBatches(seed: UInt64) throws {
        var tables = ViewRandomTables(seed: 7_100 + seed)
        for _ in 0..<200 {
            var table = ViewIncrementalTests.table(&tables)
            for s in table.sections.indices {
                for r in table.sections[s].rows.indices { table.sections[s].rows[r].id = "a\(s).\(r)" }
            }
            let before = table
            let paths = before.sections.indices.flatMap { s in
                before.sections[s].rows.indices.map { TableIndexPath(s, $0) }
            }
            guard !paths.isEmpty else { continue }
            let batch = ViewIncrementalTests.mixed(before, paths, &tables)
            guard (try? table.apply(batch)) != nil else { continue }
            let shift = LabelShift(batch)
            let touched = Set(batch.deleteRows + batch.moveRows.map(\.from) + batch.reloadRows.map(\.at))
            let labels = paths.map { ViewLabel.of(row: $0.row, section: $0.section) }
            // Every label, of a row remaining or not, keeps its order through the shift.
            #expect(zip(labels, labels.dropFirst()).allSatisfy { shift($0) <= shift($1) }, "\(batch)")
            var remaining: [UInt64] = []
            for (path, label) in zip(paths, labels) where !touched.contains(path) {
                let moved = shift(label)
                let row = table.row(at: TableIndexPath(ViewLabel.section(of: moved), ViewLabel.row(of: moved)))
                #expect(row == before.row(at: path), "\(path) in \(batch)")
                remaining.append(label)
            }
            // So do the steps of its map, and labels logged or compacted through it.
            let shifted = remaining.map { shift($0) }
            #expect(remaining.map { shift.map($0) } == shifted, "\(batch)")
            for bound in [1, 2] {
                var logged = ViewLabels([remaining], bound: bound)
                logged.shift(by: shift)
                #expect(logged.sections == [shifted], "\(batch)")
            }
        }
    }
}
