import SeededRandom
import Testing
@testable import TableModel

/// Random snapshots and random edits of them: rows and sections with and without
/// ids, repeated equal rows, moves within and across sections, renamed sections.
struct DiffRandomTables {
    var random: SeededGenerator
    /// How often a new row or section has no id, in percent.
    var withoutIDPercent: Int
    private var nextID = 0

    init(seed: UInt64, withoutIDPercent: Int = 20) {
        random = SeededGenerator(seed: seed)
        self.withoutIDPercent = withoutIDPercent
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func freshID(_ prefix: String) -> String {
        nextID += 1
        return "\(prefix)\(nextID)"
    }

    /// A row with a fresh id, or one without an id from a small set of contents.
    mutating func row() -> Row {
        if chance(withoutIDPercent) { return Row(text: ["x", "y", "z"].randomElement(using: &random)!) }
        let id = freshID("r")
        return Row(id: id, text: id)
    }

    /// A section with a fresh id, or one without an id headed by a few names.
    mutating func section(rows count: Int) -> Section {
        let rows = (0..<count).map { _ in row() }
        if chance(withoutIDPercent) {
            return Section(header: ["A", "B", nil].randomElement(using: &random)!, rows: rows)
        }
        let id = freshID("s")
        return Section(id: id, header: id, rows: rows)
    }

    mutating func table(sections: Int, rowsPerSection: ClosedRange<Int>) -> Table {
        Table(
            id: "t", sections: (0..<sections).map { _ in section(rows: Int.random(in: rowsPerSection, using: &random)) }
        )
    }

    /// `table` after `count` random edits of every kind (of rows only, unless `sectionEdits`).
    mutating func edit(_ table: Table, count: Int, sectionEdits: Bool = true) -> Table {
        var sections = table.sections.map { ($0, Array($0.rows)) }
        var result = table
        for _ in 0..<count {
            let rowCount = sections.reduce(0) { $0 + $1.1.count }
            switch Int.random(in: 0..<(sectionEdits ? 13 : 8), using: &random) {
            case 0...1 where rowCount > 0:  // delete a row
                let (s, r) = randomRow(in: sections)
                sections[s].1.remove(at: r)
            case 2...3 where !sections.isEmpty:  // insert a row
                let s = Int.random(in: sections.indices, using: &random)
                sections[s].1.insert(row(), at: Int.random(in: 0...sections[s].1.count, using: &random))
            case 4...5 where rowCount > 0:  // move a row, maybe to another section
                let (s, r) = randomRow(in: sections)
                let moved = sections[s].1.remove(at: r)
                let t = Int.random(in: sections.indices, using: &random)
                sections[t].1.insert(moved, at: Int.random(in: 0...sections[t].1.count, using: &random))
            case 6...7 where rowCount > 0:  // change a row's content
                let (s, r) = randomRow(in: sections)
                sections[s].1[r].detail = freshID("d")
            case 8 where !sections.isEmpty:  // delete a section
                sections.remove(at: Int.random(in: sections.indices, using: &random))
            case 9:  // insert a section
                let inserted = section(rows: Int.random(in: 0...3, using: &random))
                sections.insert(
                    (inserted, Array(inserted.rows)), at: Int.random(in: 0...sections.count, using: &random))
            case 10 where !sections.isEmpty:  // move a section
                let moved = sections.remove(at: Int.random(in: sections.indices, using: &random))
                sections.insert(moved, at: Int.random(in: 0...sections.count, using: &random))
            case 11 where !sections.isEmpty:  // change a header, or rename a section (a new id)
                let s = Int.random(in: sections.indices, using: &random)
                if chance(50) { sections[s].0.header = freshID("h") } else { sections[s].0.id = freshID("s") }
            case 12:  // change table properties
                result.title = freshID("title")
                result.style = TableStyle.allCases.randomElement(using: &random)!
            default:
                break
            }
        }
        return Table(
            id: result.id, title: result.title, style: result.style,
            sections: sections.map { $0.0.withRows($0.1) }
        )
    }

    private mutating func randomRow(in sections: [(Section, [Row])]) -> (Int, Int) {
        let nonEmpty = sections.indices.filter { !sections[$0].1.isEmpty }
        let s = nonEmpty.randomElement(using: &random)!
        return (s, Int.random(in: sections[s].1.indices, using: &random))
    }

    /// A table sharing some rows with `table`, shuffled anywhere, plus new ones.
    mutating func shuffle(_ table: Table) -> Table {
        var pool = table.sections.flatMap { Array($0.rows) }.filter { _ in chance(70) }
        pool.shuffle(using: &random)
        var sections = table.sections.filter { _ in chance(70) }.map { $0.withRows([]) }
        sections += (0..<Int.random(in: 0...2, using: &random)).map { _ in section(rows: 0) }
        sections.shuffle(using: &random)
        guard !sections.isEmpty else { return Table(id: "t") }
        for row in pool + (0..<Int.random(in: 0...4, using: &random)).map({ _ in row() }) {
            let s = Int.random(in: sections.indices, using: &random)
            sections[s].rows.insert(row, at: Int.random(in: 0...sections[s].rows.count, using: &random))
        }
        return Table(id: "t", sections: sections)
    }
}

@Suite("Snapshot diff: random snapshots replayed with the batch engine")
struct DiffPropertyTests {
    @Test("random edits: the batches replay to exactly the new table", arguments: PropertyRuns.seeds(8))
    func randomEdits(seed: UInt64) {
        var tables = DiffRandomTables(seed: seed)
        for _ in 0..<400 {
            let old = tables.table(sections: Int.random(in: 0...5, using: &tables.random), rowsPerSection: 0...6)
            let new = tables.edit(old, count: Int.random(in: 0...10, using: &tables.random))
            let batches = DiffFixture.expectDiff(from: old, to: new)
            var same = new
            same.version = old.version
            #expect(batches.isEmpty == (same == old))
        }
    }

    @Test("random reshuffles: rows scattered across kept, new and renamed sections", arguments: 0..<2)
    func randomReshuffles(seed: UInt64) {
        var tables = DiffRandomTables(seed: 100 + seed)
        for _ in 0..<500 {
            let old = tables.table(sections: Int.random(in: 0...4, using: &tables.random), rowsPerSection: 0...5)
            DiffFixture.expectDiff(from: old, to: tables.shuffle(old))
        }
    }

    @Test("row edits alone, however many, take at most two batches")
    func rowEditsOnly() {
        var tables = DiffRandomTables(seed: 7)
        for _ in 0..<300 {
            let old = tables.table(sections: 4, rowsPerSection: 0...8)
            var new = old
            for _ in 0..<5 {
                new = tables.edit(new, count: 1)
                let sectionsChanged =
                    new.sections.map(\.id) != old.sections.map(\.id)
                    || new.sections.map(\.header) != old.sections.map(\.header)
                if sectionsChanged {
                    new = old
                }
            }
            new.title = old.title
            new.style = old.style
            let batches = DiffFixture.expectDiff(from: old, to: new)
            #expect(batches.count <= 2)
        }
    }

    @Test("with ids everywhere, exactly the batches the rules force")
    func batchCountIsForced() {
        var tables = DiffRandomTables(seed: 11, withoutIDPercent: 0)
        for round in 0..<1_000 {
            let old = tables.table(sections: Int.random(in: 0...4, using: &tables.random), rowsPerSection: 0...5)
            let edits = Int.random(in: 0...8, using: &tables.random)
            let new = round.isMultiple(of: 2) ? tables.shuffle(old) : tables.edit(old, count: edits)
            let batches = DiffFixture.expectDiff(from: old, to: new)
            let forced = Self.forcedBatches(from: old, to: new)
            #expect(
                (forced.minimum...forced.maximum).contains(batches.count),
                "\(batches.count) batches, forced \(forced)"
            )
        }
    }

    /// Between how many batches the rules force: one for any change, one more when
    /// rows move into a new section (it must exist first), one more when rows leave
    /// a deleted section (it must go after), and possibly one for reloads when
    /// content changes and neither of those batches exists to carry them.
    static func forcedBatches(from old: Table, to new: Table) -> (minimum: Int, maximum: Int) {
        var same = new
        same.version = old.version
        guard same != old else { return (0, 0) }
        func placement(_ table: Table) -> [String: (section: String, row: Row)] {
            var result: [String: (section: String, row: Row)] = [:]
            for section in table.sections {
                for row in section.rows { result[row.id!] = (section.id!, row) }
            }
            return result
        }
        let oldSections = Dictionary(uniqueKeysWithValues: old.sections.map { ($0.id!, $0) })
        let newSections = Dictionary(uniqueKeysWithValues: new.sections.map { ($0.id!, $0) })
        let before = placement(old)
        let after = placement(new)
        var entering = false
        var leaving = false
        var changed = false
        for (id, place) in after {
            guard let was = before[id] else { continue }
            if oldSections[place.section] == nil { entering = true }
            if newSections[was.section] == nil { leaving = true }
            if was.row != place.row { changed = true }
        }
        for (id, section) in newSections where oldSections[id].map({ $0.header != section.header }) ?? false {
            changed = true
        }
        let minimum = 1 + (entering ? 1 : 0) + (leaving ? 1 : 0)
        return (minimum, minimum + (changed && minimum == 1 ? 1 : 0))
    }

    @Test("10,000 rows in 20 sections with hundreds of edits of every kind")
    func largeTable() {
        var tables = DiffRandomTables(seed: 42)
        let old = tables.table(sections: 20, rowsPerSection: 500...500)
        #expect(old.rowCount == 10_000)
        let new = tables.edit(tables.edit(old, count: 2_000, sectionEdits: false), count: 8)
        let batches = DiffFixture.expectDiff(from: old, to: new)
        #expect(!batches.isEmpty)
    }
}
