import JSON
import SeededRandom
import Testing
@testable import TableModel

@Suite("Views: a live view follows row edits incrementally, as deriving it again would")
struct ViewIncrementalTests {
    /// One to three sections of up to 40 rows, their texts and values from
    /// small sets, so that sort keys tie often and ties go by table order.
    static func table(_ tables: inout ViewRandomTables) -> Table {
        let sections = (0..<Int.random(in: 1...3, using: &tables.random)).map { index in
            let rows = (0..<Int.random(in: 0...40, using: &tables.random)).map { _ in tables.row() }
            return Section(id: "s\(index)", header: "S\(index)", rows: rows)
        }
        return Table(id: "t", sections: sections)
    }

    /// One row's new content: a new text, detail or fields, or a row all new (its id kept, or not).
    static func edited(_ row: Row, _ tables: inout ViewRandomTables) -> Row {
        var row = row
        switch Int.random(in: 0..<5, using: &tables.random) {
        case 0: row.text = ViewRandomTables.texts.randomElement(using: &tables.random)!
        case 1: row.detail = ViewRandomTables.texts.randomElement(using: &tables.random)
        case 2: row.fields = tables.fields()
        case 3:
            let id = row.id
            row = tables.row()
            if Bool.random(using: &tables.random) { row.id = id }
        default:
            row.text = ViewRandomTables.texts.randomElement(using: &tables.random)!
            row.fields = tables.fields()
        }
        return row
    }

    /// A random edit of `table`, and whether the view is to follow it
    /// without deriving again: mostly reloads of one to three rows, by index
    /// or by id, sometimes with a new title; rows appended to a section or its
    /// last rows deleted; a row inserted or deleted anywhere, or moved within
    /// its section or to another; several of all these at once; else a section
    /// deleted, which the view follows by deriving again.
    static func edit(of table: Table, _ tables: inout ViewRandomTables) -> (batch: Batch, followed: Bool)? {
        guard !table.sections.isEmpty else { return nil }
        let paths = table.sections.indices.flatMap { s in
            table.sections[s].rows.indices.map { TableIndexPath(s, $0) }
        }
        let s = Int.random(in: table.sections.indices, using: &tables.random)
        let count = table.sections[s].rows.count
        let roll = Int.random(in: 0..<21, using: &tables.random)
        switch roll {
        case 0..<11 where !paths.isEmpty:
            var chosen = Set<TableIndexPath>()
            for _ in 0..<Int.random(in: 1...3, using: &tables.random) {
                chosen.insert(paths.randomElement(using: &tables.random)!)
            }
            let reloads = chosen.sorted().map { Batch.RowItem(at: $0, row: edited(table.row(at: $0)!, &tables)) }
            let title =
                roll == 10 ? TableProperties(title: .some("T\(Int.random(in: 0...3, using: &tables.random))")) : nil
            return (Batch(reloadRows: reloads, properties: title), true)
        case 11 where !paths.isEmpty:
            guard let path = paths.filter({ table.row(at: $0)!.id != nil }).randomElement(using: &tables.random)
            else { return nil }
            var row = edited(table.row(at: path)!, &tables)
            row.id = table.row(at: path)!.id
            return (try? IdentifiedBatch(edits: [.reloadItems([row])]).translated(for: table)).map { ($0, true) }
        case 12, 13:
            let appended = (0..<Int.random(in: 1...2, using: &tables.random)).map { offset in
                Batch.RowItem(at: TableIndexPath(s, count + offset), row: tables.row())
            }
            return (Batch(insertRows: appended), true)
        case 14 where count > 0:
            let deleted = Int.random(in: 1...min(2, count), using: &tables.random)
            return (Batch(deleteRows: ((count - deleted)..<count).map { TableIndexPath(s, $0) }), true)
        case 15 where !paths.isEmpty:
            return (Batch(deleteRows: [paths.randomElement(using: &tables.random)!]), true)
        case 16:
            let at = TableIndexPath(s, Int.random(in: 0...count, using: &tables.random))
            return (Batch(insertRows: [Batch.RowItem(at: at, row: tables.row())]), true)
        case 17 where count > 1:
            let from = Int.random(in: 0..<count, using: &tables.random)
            let to = Int.random(in: 0..<count, using: &tables.random)
            return (Batch(moveRows: [Batch.RowMove(from: TableIndexPath(s, from), to: TableIndexPath(s, to))]), true)
        case 18 where !paths.isEmpty:
            let from = paths.randomElement(using: &tables.random)!
            let target = Int.random(in: table.sections.indices, using: &tables.random)
            let rows = table.sections[target].rows.count + (target == from.section ? 0 : 1)
            let to = TableIndexPath(target, Int.random(in: 0..<rows, using: &tables.random))
            return (Batch(moveRows: [Batch.RowMove(from: from, to: to)]), true)
        case 19 where !paths.isEmpty: return (mixed(table, paths, &tables), true)
        case 20: return (Batch(deleteSections: [s]), false)
        default: return nil
        }
    }

    /// Several row edits in one batch: rows deleted, moved (within a section
    /// or to another), reloaded and inserted anywhere, each row edited once.
    static func mixed(_ table: Table, _ paths: [TableIndexPath], _ tables: inout ViewRandomTables) -> Batch {
        var untouched = paths.shuffled(using: &tables.random)
        func take(_ most: Int) -> [TableIndexPath] {
            let taken = Array(untouched.prefix(Int.random(in: 0...most, using: &tables.random)))
            untouched.removeFirst(taken.count)
            return taken
        }
        let deleted = take(2)
        let moved = take(2)
        let reloaded = take(2)
        // Where each arriving row goes: a section, then distinct places among its rows after.
        let targets = (0..<(moved.count + Int.random(in: 0...2, using: &tables.random))).map { _ in
            Int.random(in: table.sections.indices, using: &tables.random)
        }
        var places: [Int: [Int]] = [:]
        for section in Set(targets).sorted() {  // in order: the same seed, the same edits
            let leaving = (deleted + moved).count { $0.section == section }
            let after = table.sections[section].rows.count - leaving + targets.count { $0 == section }
            places[section] = Array((0..<after).shuffled(using: &tables.random))
        }
        var arriving = targets.map { section in TableIndexPath(section, places[section]!.removeLast()) }
        let moves = moved.map { Batch.RowMove(from: $0, to: arriving.removeFirst()) }
        return Batch(
            deleteRows: deleted, insertRows: arriving.map { Batch.RowItem(at: $0, row: tables.row()) },
            reloadRows: reloaded.map { Batch.RowItem(at: $0, row: edited(table.row(at: $0)!, &tables)) },
            moveRows: moves)
    }

    @Test(
        "random tables, views and edits: each update replays to the view derived again",
        arguments: PropertyRuns.seeds(8))
    func randomReloads(seed: UInt64) {
        var tables = ViewRandomTables(seed: 3_600 + seed)
        var followable = 0
        var followed = 0
        for _ in 0..<60 {
            var table = Self.table(&tables)
            let query = tables.query()
            var live = LiveView(query: query, table: table)
            // Compaction of the labels' log every few batches, not every 64 (`ViewLabels`).
            live.labels = ViewLabels(live.labels.sections, bound: Int.random(in: 1...4, using: &tables.random))
            var client = live.view
            for _ in 0..<20 {
                guard let (batch, incremental) = Self.edit(of: table, &tables), let applied = try? table.apply(batch)
                else { continue }
                // One change, as a server's views share it: the probe works out what is the same for every view.
                var change = LiveView.Change(to: table, by: [applied])
                if incremental {
                    followable += 1
                    var probe = live
                    if case .followed = probe.followIncrementally(&change) { followed += 1 }
                }
                let note = "\(query.canonicalQuery) \(applied)"
                guard let steps = live.update(&change) else {
                    Issue.record("no batch takes the view there: \(note)")
                    return
                }
                let expected = query.view(of: table)
                #expect(live.view == expected, "\(note)")
                ViewPropertyTests.expectReplay(steps.map(\.batch), on: client, gives: expected, note)
                // Each step's view, which its event is drawn from, is the client's after it.
                var replayed = client
                for step in steps {
                    _ = try? replayed.apply(step.batch)
                    #expect(replayed.sections == step.view.sections, "\(note)")
                }
                let derived = LiveView(query: query, table: table)
                #expect(live.labels == derived.labels, "\(note)")
                #expect(live.tableSections == derived.tableSections, "\(note)")
                client = expected
            }
        }
        // Every batch of row edits is followed without deriving the view again.
        #expect(followed == followable, "\(followed) of \(followable) followed")
    }

    static let cities = Table(
        id: "t",
        sections: [
            Section(
                id: "s",
                rows: [
                    Row(id: "a", text: "Austin", fields: JSONObject([JSONMember("pop", .integer(9))])),
                    Row(id: "b", text: "Boston", fields: JSONObject([JSONMember("pop", .integer(6))])),
                    Row(id: "c", text: "Chicago", fields: JSONObject([JSONMember("pop", .integer(27))])),
                ])
        ])

    static func reload(_ id: String, in table: Table, pop: Int) throws -> (table: Table, batch: Batch) {
        var table = table
        var row = table.sections[0].rows.first { $0.id == id }!
        row.fields = JSONObject([JSONMember("pop", .integer(pop))])
        let batch = try IdentifiedBatch(edits: [.reloadItems([row])]).translated(for: table)
        let applied = try table.apply(batch)
        return (table, applied)
    }

    @Test("a row whose sort key changes moves, then is reloaded where it landed")
    func sortKeyMove() throws {
        let query = TableQuery(sort: [ViewSortKey(key: .field("pop"))])
        var live = LiveView(query: query, table: Self.cities)
        let (table, applied) = try Self.reload("c", in: Self.cities, pop: 1)
        let steps = live.update(to: table, by: [applied])!
        #expect(
            steps.map(\.batch.moveRows) == [[Batch.RowMove(from: TableIndexPath(0, 2), to: TableIndexPath(0, 0))], []])
        #expect(steps.map { $0.batch.reloadRows.map(\.at) } == [[], [TableIndexPath(0, 0)]])
        #expect(live.view == query.view(of: table))
    }

    @Test("a row edited out of a filter is deleted, one edited in is inserted, one edited in place is reloaded")
    func filterInAndOut() throws {
        let query = TableQuery(filters: [ViewFilter(key: .field("pop"), op: .gt, value: "7")])
        var live = LiveView(query: query, table: Self.cities)
        var (table, applied) = try Self.reload("a", in: Self.cities, pop: 1)
        #expect(live.update(to: table, by: [applied])!.map(\.batch.deleteRows) == [[TableIndexPath(0, 0)]])
        (table, applied) = try Self.reload("b", in: table, pop: 8)
        #expect(
            live.update(to: table, by: [applied])!.map { $0.batch.insertRows.map(\.at) } == [[TableIndexPath(0, 0)]])
        (table, applied) = try Self.reload("c", in: table, pop: 30)
        #expect(
            live.update(to: table, by: [applied])!.map { $0.batch.reloadRows.map(\.at) } == [[TableIndexPath(0, 1)]])
        (table, applied) = try Self.reload("a", in: table, pop: 2)
        #expect(live.update(to: table, by: [applied])!.isEmpty)
        #expect(live.view == query.view(of: table))
    }

    @Test("a row edited into a new group value moves to a new section, and the section it leaves empty goes")
    func groupSectionsComeAndGo() throws {
        let query = TableQuery(group: ViewSortKey(key: .field("pop")))
        var live = LiveView(query: query, table: Self.cities)
        #expect(live.view.sections.map(\.header) == ["6", "9", "27"])
        let (table, applied) = try Self.reload("c", in: Self.cities, pop: 1)
        let update = live.update(to: table, by: [applied])
        let steps = try #require(update).map(\.batch)
        // Moved, never deleted and inserted again: UIKit moves no row into a section
        // inserted, nor out of one deleted, in the same batch, so the steps are the diff's.
        let inserted = steps.flatMap(\.insertSections)
        #expect(inserted.map(\.at) == [0])
        #expect(inserted.map(\.section.rows.count) == [0])
        // From section 3: the section 27 is, once the first step inserted section 1 before it.
        #expect(steps.flatMap(\.moveRows) == [Batch.RowMove(from: TableIndexPath(3, 0), to: TableIndexPath(0, 0))])
        #expect(steps.flatMap(\.deleteSections) == [3])
        #expect(steps.flatMap(\.deleteRows).isEmpty)
        #expect(steps.flatMap(\.insertRows).isEmpty)
        #expect(live.view == query.view(of: table))
        #expect(live.view.sections.map(\.header) == ["1", "6", "9"])
    }

    @Test("a group section whose first row spells its value otherwise is reloaded with its new header")
    func groupHeaderChanges() throws {
        var table = Table(
            id: "t", sections: [Section(id: "s", rows: [Row(id: "x", text: "beta"), Row(id: "y", text: "Beta")])])
        let query = TableQuery(group: ViewSortKey(key: .text))
        var live = LiveView(query: query, table: table)
        #expect(live.view.sections.map(\.header) == ["beta"])
        let applied = try table.apply(
            Batch(reloadRows: [Batch.RowItem(at: TableIndexPath(0, 0), row: Row(id: "x", text: "BETA"))]))
        let update = live.update(to: table, by: [applied])
        let steps = try #require(update)
        #expect(steps.map { $0.batch.reloadRows.map(\.at) } == [[TableIndexPath(0, 0)], []])
        #expect(steps.map { $0.batch.reloadSections.map(\.section.header) } == [[], ["BETA"]])
        #expect(live.view == query.view(of: table))
    }
}
