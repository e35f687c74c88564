import JSON
import Testing
@testable import TableModel

/// A live view's updates say exactly what changed in the view (docs/API.md,
/// "Views"): a group headed as the read heads it, nothing for a change that
/// leaves the view as it was, no move onto a row's own index path, no reload
/// of a row whose content is the same.
@Suite("Views: a live view's updates are the read's, and only what changed")
struct ViewExactUpdateTests {
    static func row(_ id: String, _ text: String, w: String? = nil) -> Row {
        Row(id: id, text: text, fields: JSONObject(w.map { [JSONMember("w", .string($0))] } ?? []))
    }

    @Test("a group inserted by one batch is headed by its first row in the view's order")
    func insertedGroupHeader() throws {
        var table = Table(id: "t", sections: [Section(id: "s")])
        let query = TableQuery(sort: [ViewSortKey(key: .field("w"), descending: true)], group: ViewSortKey(key: .text))
        var live = LiveView(query: query, table: table)
        let applied = try table.apply(
            Batch(insertRows: [
                Batch.RowItem(at: TableIndexPath(0, 0), row: Self.row("r1", "apple", w: "a")),
                Batch.RowItem(at: TableIndexPath(0, 1), row: Self.row("r2", "Apple", w: "b")),
            ]))
        let stepsUpdate = live.update(to: table, by: [applied])
        let steps = try #require(stepsUpdate)
        #expect(steps.flatMap { $0.batch.insertSections.map(\.section.header) } == ["Apple"])
        #expect(query.view(of: table).sections.map(\.header) == ["Apple"])
        #expect(live.view == query.view(of: table))

        // The first row changes: the section is reloaded with the new first row's spelling.
        var first = Self.row("r1", "apple", w: "c")
        let moved = try table.apply(Batch(reloadRows: [Batch.RowItem(at: TableIndexPath(0, 0), row: first)]))
        let nextUpdate = live.update(to: table, by: [moved])
        let next = try #require(nextUpdate)
        #expect(next.flatMap { $0.batch.reloadSections.map(\.section.header) } == ["apple"])
        #expect(live.view == query.view(of: table))
        #expect(live.view.sections.map(\.header) == ["apple"])
        first.text = "APPLE"
        let respelled = try table.apply(Batch(reloadRows: [Batch.RowItem(at: TableIndexPath(0, 0), row: first)]))
        let lastUpdate = live.update(to: table, by: [respelled])
        let last = try #require(lastUpdate)
        #expect(last.flatMap { $0.batch.reloadSections.map(\.section.header) } == ["APPLE"])
        #expect(live.view == query.view(of: table))
    }

    static let fruit = Table(
        id: "t",
        sections: [
            Section(id: "s", rows: [Self.row("b", "banana"), Self.row("c", "apple pie"), Self.row("a", "apple")])
        ])

    @Test("rows moved in the table that keep their places in the view send nothing")
    func movesWithinTheViewsPlaces() throws {
        let query = TableQuery(sort: [ViewSortKey(key: .text)])
        // The first two swapped (as two moves, or one), a row moved to the other end, all three turned round.
        let cases = [[(0, 1), (1, 0)], [(0, 1)], [(0, 2)], [(2, 0)], [(0, 2), (1, 1), (2, 0)]]
        for moves in cases {
            var table = Self.fruit
            var live = LiveView(query: query, table: table)
            #expect(live.view.sections[0].rows.map(\.id) == ["a", "c", "b"])
            let applied = try table.apply(
                Batch(moveRows: moves.map { Batch.RowMove(from: TableIndexPath(0, $0.0), to: TableIndexPath(0, $0.1)) })
            )
            let stepsUpdate = live.update(to: table, by: [applied])
            let steps = try #require(stepsUpdate)
            #expect(steps.isEmpty, "moves \(moves): \(steps.map(\.batch))")
            #expect(live.view == query.view(of: table))
        }
    }

    @Test("rows deleted, inserted and moved in the table: only the rows entering and leaving the view are sent")
    func swapWithAnEdit() throws {
        let query = TableQuery(sort: [ViewSortKey(key: .text)])
        var table = Self.fruit
        var live = LiveView(query: query, table: table)
        let applied = try table.apply(
            Batch(
                deleteRows: [TableIndexPath(0, 0)],
                insertRows: [Batch.RowItem(at: TableIndexPath(0, 1), row: Self.row("n", "blueberry"))],
                moveRows: [Batch.RowMove(from: TableIndexPath(0, 1), to: TableIndexPath(0, 0))]))
        let stepsUpdate = live.update(to: table, by: [applied])
        let steps = try #require(stepsUpdate)
        let batches = steps.map(\.batch)
        #expect(batches.flatMap(\.moveRows).isEmpty, "\(batches)")
        #expect(batches.flatMap(\.reloadRows).isEmpty, "\(batches)")
        #expect(batches.flatMap(\.deleteRows) == [TableIndexPath(0, 2)])
        #expect(batches.flatMap { $0.insertRows.map(\.at) } == [TableIndexPath(0, 2)])
        #expect(live.view == query.view(of: table))
    }

    @Test("a row that really moves in the view, its content the same, is moved and not reloaded")
    func moveWithoutReload() throws {
        let query = TableQuery(sort: [ViewSortKey(key: .field("w"))])
        var table = Table(
            id: "t", sections: [Section(id: "s", rows: [Self.row("x", "x"), Self.row("y", "y"), Self.row("z", "z")])])
        var live = LiveView(query: query, table: table)
        let applied = try table.apply(
            Batch(moveRows: [Batch.RowMove(from: TableIndexPath(0, 2), to: TableIndexPath(0, 0))]))
        let stepsUpdate = live.update(to: table, by: [applied])
        let steps = try #require(stepsUpdate)
        #expect(steps.map(\.batch.moveRows) == [[Batch.RowMove(from: TableIndexPath(0, 2), to: TableIndexPath(0, 0))]])
        #expect(steps.flatMap(\.batch.reloadRows).isEmpty)
        #expect(live.view == query.view(of: table))
    }
}

@Suite("Snapshot diff: the rows kept in place hold every row at its old index; none moves onto its own index path")
struct SnapshotDiffInPlaceTests {
    @Test("rows deleted around two that swap: the one at its old index stays, the other moves")
    func keepsTheRowAtItsIndex() throws {
        let rows = ["d", "x", "y", "e"].map { Row(id: $0, text: $0) }
        let old = Table(id: "t", sections: [Section(id: "s", rows: rows)])
        let new = Table(id: "t", sections: [Section(id: "s", rows: [rows[2], rows[1]])])
        let batches = SnapshotDiff.batches(from: old, to: new)
        #expect(batches.flatMap(\.moveRows) == [Batch.RowMove(from: TableIndexPath(0, 2), to: TableIndexPath(0, 0))])
        var replayed = old
        for batch in batches { _ = try replayed.apply(batch) }
        #expect(replayed.sections == new.sections)
    }

    @Test("a row at its old index that no longest run keeps stays, the runs around it move")
    func keepsTheRowAtItsIndexOverALongerRun() throws {
        // [a, b, x, c, d] to [c, d, x, a, b]: the longest runs, a b or c d, leave x out.
        let rows = ["a", "b", "x", "c", "d"].map { Row(id: $0, text: $0) }
        let old = Table(id: "t", sections: [Section(id: "s", rows: rows)])
        let new = Table(id: "t", sections: [Section(id: "s", rows: [3, 4, 2, 0, 1].map { rows[$0] })])
        let batches = SnapshotDiff.batches(from: old, to: new)
        let moves = batches.flatMap(\.moveRows)
        #expect(!moves.contains { $0.from == $0.to }, "\(moves)")
        #expect(moves.count == 4)
        var replayed = old
        for batch in batches { _ = try replayed.apply(batch) }
        #expect(replayed.sections == new.sections)
    }

    @Test("of any run, the one kept in place holds every row at its old index")
    func keepingEveryRequiredElement() {
        // Values in old order; the required ones (at their old index) increase among themselves.
        let cases: [([Int], [Bool])] = [
            ([3, 4, 2, 0, 1], [false, false, true, false, false]),
            ([5, 1, 2, 3, 0, 4], [false, false, false, true, false, true]),
            ([0, 4, 3, 2, 1], [true, false, false, false, false]),
        ]
        for (values, required) in cases {
            let kept = longestIncreasingSubsequence(values, keeping: required)
            let run = values.indices.filter { kept[$0] }.map { values[$0] }
            #expect(run == run.sorted() && Set(run).count == run.count, "\(values): \(run)")
            #expect(values.indices.allSatisfy { !required[$0] || kept[$0] }, "\(values): \(run)")
            // As long as the longest increasing run holding them all, found by trying every subset.
            let longest = (0..<(1 << values.count)).compactMap { mask -> Int? in
                let chosen = values.indices.filter { mask & (1 << $0) != 0 }
                let increasing = zip(chosen, chosen.dropFirst()).allSatisfy { values[$0] < values[$1] }
                return increasing && values.indices.allSatisfy { !required[$0] || chosen.contains($0) }
                    ? chosen.count : nil
            }.max()
            #expect(run.count == longest, "\(values)")
        }
    }
}
