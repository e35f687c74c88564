import SeededRandom
import Testing
@testable import TableModel

@Suite("Views: labels moved lazily through a log of batches' maps, and compacted, are the labels moved at once")
struct ViewLabelsTests {
    /// One to three sections of up to 1,200 rows (more than a label chunk
    /// holds), each row's id its place at first.
    static func table(_ tables: inout ViewRandomTables) -> Table {
        let sections = (0..<Int.random(in: 1...3, using: &tables.random)).map { s in
            let rows = (0..<Int.random(in: 0...1_200, using: &tables.random)).map { Row(id: "a\(s).\($0)", text: "") }
            return Section(id: "s\(s)", rows: rows)
        }
        return Table(id: "t", sections: sections)
    }

    @Test("composing the maps of random batches moves each label of a row they all leave in place as they do")
    func composedMaps() {
        var tables = ViewRandomTables(seed: 8_200)
        for _ in 0..<40 {
            var table = Self.table(&tables)
            let before = table
            var composed = LabelMap.identity
            var touched = Set<String>()
            for _ in 0..<Int.random(in: 1...12, using: &tables.random) {
                let paths = table.sections.indices.flatMap { s in
                    table.sections[s].rows.indices.map { TableIndexPath(s, $0) }
                }
                guard !paths.isEmpty else { break }
                let batch = ViewIncrementalTests.mixed(table, paths, &tables)
                let edited = batch.deleteRows + batch.moveRows.map(\.from) + batch.reloadRows.map(\.at)
                touched.formUnion(edited.compactMap { table.row(at: $0)?.id })
                guard (try? table.apply(batch)) != nil else { continue }
                composed = composed.then(LabelShift(batch).map)
            }
            for s in before.sections.indices {
                for (r, row) in before.sections[s].rows.enumerated() where !touched.contains(row.id!) {
                    let label = composed(ViewLabel.of(row: r, section: s))
                    let moved = TableIndexPath(ViewLabel.section(of: label), ViewLabel.row(of: label))
                    #expect(table.row(at: moved)?.id == row.id, "\(row.id!) at \(moved)")
                }
            }
        }
    }

    @Test("the maps composed from several epochs at once are each epoch's maps composed alone")
    func mapsFromEpochs() {
        var tables = ViewRandomTables(seed: 8_400)
        for _ in 0..<30 {
            var table = Self.table(&tables)
            var log = LabelLog()
            for _ in 0..<Int.random(in: 0...24, using: &tables.random) {
                let paths = table.sections.indices.flatMap { s in
                    table.sections[s].rows.indices.map { TableIndexPath(s, $0) }
                }
                guard !paths.isEmpty else { break }
                let batch = ViewIncrementalTests.mixed(table, paths, &tables)
                guard (try? table.apply(batch)) != nil else { continue }
                log.append(LabelShift(batch).map)
            }
            let epochs = Set(
                (0..<Int.random(in: 0...8, using: &tables.random)).map { _ in
                    Int.random(in: 0...log.epoch, using: &tables.random)
                })
            let composed = log.maps(from: epochs)
            for epoch in epochs {
                #expect(composed[epoch] == (epoch < log.epoch ? log.map(from: epoch) : nil), "epoch \(epoch)")
            }
        }
    }

    @Test(
        "a view of every row in a random order: labels removed, logged, read, inserted and compacted",
        arguments: PropertyRuns.seeds(3))
    func loggedLabels(seed: UInt64) {
        var tables = ViewRandomTables(seed: 8_300 + seed)
        for _ in 0..<6 {
            var table = Self.table(&tables)
            // One view section holding every row, in no order: as a sorted view's labels come.
            var expected = table.sections.indices.flatMap { s in
                table.sections[s].rows.indices.map { ViewLabel.of(row: $0, section: s) }
            }.shuffled(using: &tables.random)
            var labels = ViewLabels([expected], bound: Int.random(in: 1...6, using: &tables.random))
            for _ in 0..<30 {
                let paths = table.sections.indices.flatMap { s in
                    table.sections[s].rows.indices.map { TableIndexPath(s, $0) }
                }
                let batch =
                    paths.isEmpty
                    ? Batch(insertRows: [Batch.RowItem(at: TableIndexPath(0, 0), row: Row(id: "n", text: ""))])
                    : ViewIncrementalTests.mixed(table, paths, &tables)
                guard (try? table.apply(batch)) != nil else { continue }
                let shift = LabelShift(batch)
                // The rows leaving go, the others move, the rows arriving come anywhere.
                for path in batch.deleteRows + batch.moveRows.map(\.from) {
                    let position = expected.firstIndex(of: ViewLabel.of(row: path.row, section: path.section))!
                    expected.remove(at: position)
                    labels.remove(at: TableIndexPath(0, position))
                }
                expected = expected.map { shift($0) }
                labels.shift(by: shift)
                for path in batch.insertRows.map(\.at) + batch.moveRows.map(\.to) {
                    let position = Int.random(in: 0...expected.count, using: &tables.random)
                    let label = ViewLabel.of(row: path.row, section: path.section)
                    expected.insert(label, at: position)
                    labels.insert(label, at: TableIndexPath(0, position))
                }
                let probe = Int.random(in: 0...expected.count, using: &tables.random)
                if probe < expected.count { #expect(labels[0, probe] == expected[probe], "\(batch)") }
            }
            #expect(labels.sections == [expected])
            #expect(Set(expected).count == table.rowCount)
        }
    }
}
