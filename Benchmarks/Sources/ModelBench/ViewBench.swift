import Glibc
import JSON
import TableModel

/// A table of `rows` rows (`{"id":"rN","text":"Row N","fields":{"state":S,"pop":P}}`,
/// 50 states, populations 0–999) with `views` different live views open, as
/// a server holds them (`OpenViews`: each moved by every change), then
/// `edits` one-row edits: a row's population changed, every fourth edit its
/// state too, made with `Table.apply` and followed by every view
/// (`LiveView.update(_:)`, one `LiveView.Change` for all). The views, a quarter each, over one state
/// each (2 % of the rows): sorted by population; sorted by text, descending;
/// grouped by population, sorted by text; searched for the state (`q`), in
/// the table's order. So an edit moves, reloads, inserts or deletes a row in
/// the few views of its states and leaves the others unchanged.
///
/// With `kind` `insert` or `move`, the edits shift the rows after them
/// instead: a row inserted in the middle half of the section (a random state,
/// population 1) and deleted again, or a row moved from the middle half to
/// another place in it — each insert, delete and move an edit measured (scripts/bench/views.py's
/// `insert_views_us` and `move_views_us`, without HTTP).
///
/// Reports thread CPU per edit (the table's edit and all views' together) in
/// nanoseconds, median, mean and max; the views' rows; the memory they
/// take (resident KiB after opening them, less before), per view; and the
/// thread CPU opening them took, per view (`open_ns_per_view`).
enum ViewBench {
    static let states = (0..<50).map { "S\($0)" }

    /// What the measured edits are.
    enum Kind: String {
        case reload, insert, move
    }

    static func run(rows: Int, views count: Int, edits: Int, kind: Kind = .reload) {
        var random = SplitMix(state: UInt64(rows))
        var table = makeTable(rows: rows, random: &random)
        trim()
        let before = residentKiB()
        var views: [LiveView] = []
        let opening = measure { views = queries(count).map { LiveView(query: $0, table: table) } }
        trim()
        let opened = residentKiB()
        var times: [Int] = []
        var changed = 0
        var inserted = 0
        func follow(_ batch: Batch) {
            times.append(
                measure {
                    guard let applied = try? table.apply(batch) else { fatalError("refused") }
                    var change = LiveView.Change(to: table, by: [applied])
                    for view in views.indices {
                        guard let steps = views[view].update(&change) else { fatalError("reset") }
                        if !steps.isEmpty { changed += 1 }
                    }
                })
        }
        for edit in 0..<edits {
            let index = Int.random(in: 0..<rows, using: &random)
            let middle = rows / 4 + Int.random(in: 0..<(rows / 2), using: &random)
            switch kind {
            case .reload:
                var row = table.sections[0].rows[index]
                let state = edit % 4 == 0 ? states.randomElement(using: &random)! : nil
                row.fields = fields(state: state ?? stateOf(row), pop: Int.random(in: 0..<1000, using: &random))
                follow(Batch(reloadRows: [Batch.RowItem(at: TableIndexPath(0, index), row: row)]))
            case .insert where edit % 2 == 0:
                let row = Row(
                    text: "New \(middle)", fields: fields(state: states.randomElement(using: &random)!, pop: 1))
                follow(Batch(insertRows: [Batch.RowItem(at: TableIndexPath(0, middle), row: row)]))
                inserted = middle
            case .insert:
                follow(Batch(deleteRows: [TableIndexPath(0, inserted)]))
            case .move:
                let to = rows / 4 + Int.random(in: 0..<(rows / 2), using: &random)
                follow(Batch(moveRows: [Batch.RowMove(from: TableIndexPath(0, middle), to: TableIndexPath(0, to))]))
            }
        }
        let sorted = times.sorted()
        report(
            kind == .reload ? "views" : "views_\(kind)",
            [
                ("rows", rows), ("views", count), ("edits", edits),
                ("view_rows", views.reduce(0) { $0 + $1.view.rowCount }), ("changed_views", changed),
                ("median_ns", sorted[sorted.count / 2]), ("mean_ns", times.reduce(0, +) / times.count),
                ("max_ns", sorted.last!), ("kib_per_view", (opened - before) / max(count, 1)),
                ("open_ns_per_view", opening / max(count, 1)),
            ])
        withExtendedLifetime(views) {}
    }

    /// The `count` views: a state each, and one of four shapes in turn.
    static func queries(_ count: Int) -> [TableQuery] {
        (0..<count).map { index in
            let state = states[(index / 4) % states.count]
            let filter = [ViewFilter(key: .field("state"), value: state)]
            switch index % 4 {
            case 0: return TableQuery(filters: filter, sort: [ViewSortKey(key: .field("pop"))])
            case 1: return TableQuery(filters: filter, sort: [ViewSortKey(key: .text, descending: true)])
            case 2:
                return TableQuery(
                    filters: filter, sort: [ViewSortKey(key: .text)], group: ViewSortKey(key: .field("pop")))
            default: return TableQuery(words: [state])
            }
        }
    }

    static func makeTable(rows: Int, random: inout SplitMix) -> Table {
        let list = RowList(
            (0..<rows).map { index in
                Row(
                    id: "r\(index)", text: "Row \(index)",
                    fields: fields(
                        state: states.randomElement(using: &random)!, pop: Int.random(in: 0..<1000, using: &random)))
            })
        return Table(id: "views", sections: [Section(id: "s", rows: list)])
    }

    static func fields(state: String, pop: Int) -> JSONObject {
        JSONObject([JSONMember("state", .string(state)), JSONMember("pop", .integer(pop))])
    }

    static func stateOf(_ row: Row) -> String {
        if case .string(let state) = row.fields["state"] { return state }
        return states[0]
    }

    /// Gives freed memory back, so resident memory counts what is in use.
    static func trim() {
        if let symbol = dlsym(nil, "malloc_trim") {
            _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        }
    }

    /// VmRSS of this process, in KiB.
    static func residentKiB() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            if text.hasPrefix("VmRSS:") {
                return Int(text.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
            }
        }
        return 0
    }
}
