import JSON
import SeededRandom
import Testing
@testable import TableModel

/// Random tables of rows with words, details and fields (accents, numbers,
/// repeats, rows without ids), random views of them and random edits.
struct ViewRandomTables {
    var random: SeededGenerator
    private var nextID = 0
    static let texts = ["São Paulo", "sao", "Zürich", "item 2", "Item 10", "alpha", "Beta", "beta", ""]
    static let words = ["sa", "SAO", "item", "2", "be", "z", "Ü"]
    static let states = ["CA", "ny", "Ñu", "tx"]

    /// How often a new row has no id, in percent.
    var withoutIDPercent: Int
    /// The texts rows, details and string fields are drawn from.
    var palette = Self.texts
    /// Number literals a field may hold besides small integers (none: integers only).
    var literals: [String] = []
    /// The values filters compare with.
    var filterValues = Self.states + ["3", "7", "s", "item 3"]

    init(seed: UInt64, withoutIDPercent: Int = 20) {
        random = SeededGenerator(seed: seed)
        self.withoutIDPercent = withoutIDPercent
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &random)! }

    private mutating func freshID(_ prefix: String) -> String {
        nextID += 1
        return "\(prefix)\(nextID)"
    }

    mutating func fields() -> JSONObject {
        var members: [JSONMember] = []
        if chance(80) { members.append(JSONMember("state", .string(pick(Self.states)))) }
        if chance(80) {
            members.append(
                JSONMember(
                    "pop", chance(85) ? number() : .string(pick(palette))))
        }
        return JSONObject(members)
    }

    private mutating func number() -> JSONValue {
        guard !literals.isEmpty, chance(40) else { return .integer(Int.random(in: 0...12, using: &random)) }
        return JSONValue.number(literal: pick(literals))!
    }

    mutating func row() -> Row {
        Row(
            id: chance(withoutIDPercent) ? nil : freshID("r"), text: pick(palette),
            detail: chance(50) ? pick(palette) : nil,
            fields: fields())
    }

    mutating func section() -> Section {
        let rows = (0..<Int.random(in: 0...5, using: &random)).map { _ in row() }
        return chance(80) ? Section(id: freshID("s"), header: pick(palette), rows: rows) : Section(rows: rows)
    }

    mutating func table() -> Table {
        Table(id: "t", sections: (0..<Int.random(in: 0...4, using: &random)).map { _ in section() })
    }

    mutating func key() -> ViewKey {
        pick([.text, .detail, .id, .section, .field("state"), .field("pop"), .field("none")])
    }

    mutating func query() -> TableQuery {
        var query = TableQuery()
        query.words = (0..<Int.random(in: 0...2, using: &random)).map { _ in pick(Self.words) }
        query.filters = (0..<Int.random(in: 0...2, using: &random)).map { _ in
            ViewFilter(
                key: key(), op: pick(ViewFilter.Operator.allCases),
                value: pick(filterValues))
        }
        query.sort = (0..<Int.random(in: 0...2, using: &random)).map { _ in
            ViewSortKey(key: key(), descending: chance(50))
        }
        query.group = chance(50) ? ViewSortKey(key: key(), descending: chance(30)) : nil
        return query
    }

    /// `table` after `count` random edits: rows in, out, moved, changed in place;
    /// sections in, out, moved, renamed; the title.
    mutating func edit(_ table: Table, count: Int) -> Table {
        var sections = table.sections.map { ($0, Array($0.rows)) }
        var title = table.title
        for _ in 0..<count {
            let nonEmpty = sections.indices.filter { !sections[$0].1.isEmpty }
            switch Int.random(in: 0..<11, using: &random) {
            case 0 where !nonEmpty.isEmpty:
                let s = pick(nonEmpty)
                sections[s].1.remove(at: Int.random(in: sections[s].1.indices, using: &random))
            case 1 where !sections.isEmpty:
                let s = Int.random(in: sections.indices, using: &random)
                sections[s].1.insert(row(), at: Int.random(in: 0...sections[s].1.count, using: &random))
            case 2 where !nonEmpty.isEmpty:
                let s = pick(nonEmpty)
                let moved = sections[s].1.remove(at: Int.random(in: sections[s].1.indices, using: &random))
                let t = Int.random(in: sections.indices, using: &random)
                sections[t].1.insert(moved, at: Int.random(in: 0...sections[t].1.count, using: &random))
            case 3...5 where !nonEmpty.isEmpty:
                let s = pick(nonEmpty)
                let r = Int.random(in: sections[s].1.indices, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: sections[s].1[r].text = pick(palette)
                case 1: sections[s].1[r].detail = chance(70) ? pick(palette) : nil
                default: sections[s].1[r].fields = fields()
                }
            case 6 where !sections.isEmpty:
                sections.remove(at: Int.random(in: sections.indices, using: &random))
            case 7:
                let inserted = section()
                sections.insert(
                    (inserted, Array(inserted.rows)), at: Int.random(in: 0...sections.count, using: &random))
            case 8 where !sections.isEmpty:
                let moved = sections.remove(at: Int.random(in: sections.indices, using: &random))
                sections.insert(moved, at: Int.random(in: 0...sections.count, using: &random))
            case 9 where !sections.isEmpty:
                let s = Int.random(in: sections.indices, using: &random)
                if chance(50) { sections[s].0.header = pick(palette) } else { sections[s].0.id = freshID("s") }
            case 10:
                title = chance(50) ? freshID("title") : nil
            default:
                break
            }
        }
        return Table(
            id: table.id, title: title, version: table.version + 1, sections: sections.map { $0.0.withRows($0.1) })
    }
}

@Suite("Views: every batch of a live view replays to the view recomputed from scratch")
struct ViewPropertyTests {
    /// Applies `batches` to `view` with the batch engine and with the reference
    /// engine of the UIKit rules; expects both to give `expected` (version aside).
    static func expectReplay(
        _ batches: [Batch], on view: Table, gives expected: Table, _ note: @autoclosure () -> String
    ) {
        var engine = view
        var reference: Table? = view
        for batch in batches {
            #expect(!batch.isEmpty, "an empty batch: \(note())")
            do {
                _ = try engine.apply(batch)
            } catch {
                Issue.record("batch refused: \(error.type): \(error.detail) in \(batch); \(note())")
                return
            }
            reference = reference.flatMap { ReferenceBatch.apply(batch, to: $0) }
        }
        engine.version = expected.version
        #expect(engine == expected, "the engine's replay differs: \(note())")
        guard var reference else {
            Issue.record("the reference refuses the batches: \(note())")
            return
        }
        reference.version = expected.version
        #expect(reference.sections == expected.sections, "the reference's replay differs: \(note())")
    }

    @Test("random tables, random views, random edits", arguments: PropertyRuns.seeds(8))
    func randomEdits(seed: UInt64) {
        var tables = ViewRandomTables(seed: 3_100 + seed)
        for _ in 0..<500 {
            let old = tables.table()
            let query = tables.query()
            let new = tables.edit(old, count: Int.random(in: 0...6, using: &tables.random))
            var live = LiveView(query: query, table: old)
            let before = live.view
            let batches = live.update(to: new)!.map(\.batch)
            let expected = query.view(of: new)
            #expect(live.view == expected)
            var unchanged = expected
            unchanged.version = before.version
            #expect(batches.isEmpty == (unchanged == before), "\(query.canonicalQuery)")
            Self.expectReplay(batches, on: before, gives: expected, "\(query.canonicalQuery) \(batches)")
        }
    }

    @Test("a subscriber following one live view through many edits stays in step", arguments: PropertyRuns.seeds(4))
    func longRuns(seed: UInt64) {
        var tables = ViewRandomTables(seed: 3_200 + seed)
        for _ in 0..<40 {
            var table = tables.table()
            let query = tables.query()
            var live = LiveView(query: query, table: table)
            var client = live.view
            for _ in 0..<25 {
                table = tables.edit(table, count: Int.random(in: 1...3, using: &tables.random))
                let batches = live.update(to: table)!.map(\.batch)
                let expected = query.view(of: table)
                Self.expectReplay(batches, on: client, gives: expected, query.canonicalQuery)
                client = expected
            }
        }
    }

    @Test("the view selects exactly the matching rows, in sort order, grouped by value", arguments: 0..<4)
    func viewSemantics(seed: UInt64) {
        // Every row has an id here, so that a row tells which section it came from.
        var tables = ViewRandomTables(seed: 3_300 + seed, withoutIDPercent: 0)
        for _ in 0..<500 {
            let table = tables.table()
            let query = tables.query()
            let view = query.view(of: table)
            let selection = RowSelection(query)
            var expected: [Row] = []
            var sectionOf: [Row: Section] = [:]
            for section in table.sections {
                for row in section.rows where selection.matches(row, in: section) {
                    expected.append(row)
                    sectionOf[row] = section
                }
            }
            let rows = view.sections.flatMap { Array($0.rows) }
            let viewIDs = rows.compactMap(\.id).sorted()
            let expectedIDs = expected.compactMap(\.id).sorted()
            #expect(viewIDs == expectedIDs)
            for section in view.sections {
                let ordered = Array(section.rows)
                for (a, b) in zip(ordered, ordered.dropFirst()) {
                    let order = Self.sortOrder(a, in: sectionOf[a]!, b, in: sectionOf[b]!, by: query.sort)
                    #expect(order != .after, "\(query.canonicalQuery)")
                }
            }
            if let group = query.group {
                // The first row's value as it spells it; under group=section, its section's header.
                let headers = view.sections.map { section in
                    section.rows.first.flatMap { first in
                        ViewValue(group.key, of: first, in: sectionOf[first]!).map {
                            group.key == .section ? sectionOf[first]!.header ?? $0.display : $0.display
                        }
                    }
                }
                #expect(view.sections.map(\.header) == headers)
                #expect(!view.sections.contains { $0.rows.isEmpty })
            }
        }
    }

    /// How `sort` orders two rows, by the first key on which they differ
    /// (rows without a value last, in either direction): written from the
    /// rules of docs/API.md, "Views", to hold the view's order against.
    static func sortOrder(_ a: Row, in first: Section, _ b: Row, in second: Section, by sort: [ViewSortKey]) -> Ordering
    {
        for key in sort {
            let x = ViewValue(key.key, of: a, in: first)
            let y = ViewValue(key.key, of: b, in: second)
            switch (x, y) {
            case (nil, nil): continue
            case (nil, _): return .after
            case (_, nil): return .before
            case (let x?, let y?):
                let order = x.compare(to: y)
                if order == .same { continue }
                return key.descending ? (order == .before ? .after : .before) : order
            }
        }
        return .same
    }
}
