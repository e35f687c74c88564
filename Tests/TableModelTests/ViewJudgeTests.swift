import Foundation
import JSON
import SeededRandom
import Testing
@testable import TableModel

/// Live views against an independent judge (`ViewJudge`, written from
/// docs/API.md "Views"): random tables, views and edits of every kind; after
/// every update, the client's mirror built from the stream's batches with
/// UIKit's rules equals the read of the view and the judge's, and the update
/// holds only what changed.
///
/// A short run by default; a long one on demand, e.g.
/// `WEBTABLEVIEW_VIEW_EDITS=100000 WEBTABLEVIEW_VIEW_SEED=7 swift test --filter ViewJudgeTests`
/// (the seed is named in any failure). The sanitizer runs scale the 3,000
/// edits down (`PropertyRuns`).
@Suite("Views: live views against an independent judge of the documented semantics")
struct ViewJudgeTests {
    static let environment = ProcessInfo.processInfo.environment
    static let edits = environment["WEBTABLEVIEW_VIEW_EDITS"].flatMap { Int($0) } ?? PropertyRuns.count(3_000)
    static let seeds: [UInt64] =
        environment["WEBTABLEVIEW_VIEW_SEED"].flatMap { UInt64($0) }.map { [$0] } ?? [4_100, 4_101, 4_102]

    /// Texts that tie folded but are spelled otherwise, digits as numbers, marks.
    static let palette = [
        "apple", "Apple", "APPLE", "apple pie", "banana", "Banana", "São Paulo", "sao", "Straße", "strasse",
        "cafe\u{301}", "Café", "item 2", "Item 10", "item 02", "Ñu", "éclair", "3 Musketeers", "(x)", "",
    ]
    static let literals = ["1.50", "1.5", "-0", "0", "2", "10", "1e3", "1000.0", "-2.25", "12345678901234567890"]

    static func tables(seed: UInt64) -> ViewRandomTables {
        var tables = ViewRandomTables(seed: seed)
        tables.palette = palette
        tables.literals = literals
        tables.filterValues = ["apple", "APP", "s", "item 3", "1.5", "1.50", "2", "-0", "10", "ca", "Ñ"]
        return tables
    }

    @Test("random tables, views and edits: the stream's mirror, the read and the judge agree")
    func againstTheJudge() {
        // A difference ends its table's run (the mirror is off); the next run goes on, up to 100 differences.
        var differences = 0
        var (edits, updates) = (0, 0)
        for seed in Self.seeds {
            var tables = Self.tables(seed: seed)
            var done = 0
            while done < Self.edits / Self.seeds.count && differences < 100 {
                var table = ViewIncrementalTests.table(&tables)
                let query = tables.query()
                var live = LiveView(query: query, table: table)
                var mirror = live.view
                for _ in 0..<25 {
                    done += 1
                    let note = "seed \(seed), edit \(done), \(query.canonicalQuery)"
                    guard let steps = Self.edit(&table, &live, &tables) else {
                        Issue.record("no batch takes the view there: \(note)")
                        return
                    }
                    guard Self.follow(steps, &mirror, table: table, query: query, live: live, note) else {
                        differences += 1
                        break
                    }
                    updates += steps.isEmpty ? 0 : 1
                }
            }
            edits += done
        }
        // What a long run reports: how many edits and updates it judged.
        print("ViewJudgeTests: \(edits) edits, \(updates) updates, \(differences) differences, seeds \(Self.seeds)")
    }

    /// One random edit of `table` of any kind, followed by `live`: row edits
    /// of every sort (`ViewIncrementalTests.edit`), a row respelled, two rows
    /// swapped, a row reloaded as it is, section inserts, moves and reloads,
    /// or the table replaced.
    static func edit(_ table: inout Table, _ live: inout LiveView, _ tables: inout ViewRandomTables)
        -> [LiveView.Step]?
    {
        var batch: Batch?
        let paths = table.sections.indices.flatMap { s in table.sections[s].rows.indices.map { TableIndexPath(s, $0) } }
        let sections = table.sections.count
        switch Int.random(in: 0..<12, using: &tables.random) {
        case 0..<5: batch = ViewIncrementalTests.edit(of: table, &tables)?.batch
        case 5 where !paths.isEmpty:
            let at = paths.randomElement(using: &tables.random)!
            var row = table.row(at: at)!
            row.text = [row.text.uppercased(), row.text.lowercased(), row.text.capitalized].randomElement(
                using: &tables.random)!
            batch = Batch(reloadRows: [Batch.RowItem(at: at, row: row)])
        case 6 where paths.count > 1:
            let at = Int.random(in: 0..<(paths.count - 1), using: &tables.random)
            let (a, b) = (paths[at], paths[at + 1])
            batch = Batch(moveRows: [Batch.RowMove(from: a, to: b), Batch.RowMove(from: b, to: a)])
        case 7 where !paths.isEmpty:
            let at = paths.randomElement(using: &tables.random)!
            batch = Batch(reloadRows: [Batch.RowItem(at: at, row: table.row(at: at)!)])
        case 8:
            let section = Section(id: "n\(table.version)", header: "N", rows: (0..<3).map { _ in tables.row() })
            batch = Batch(insertSections: [
                Batch.SectionItem(at: Int.random(in: 0...sections, using: &tables.random), section: section)
            ])
        case 9 where sections > 1:
            let from = Int.random(in: 0..<sections, using: &tables.random)
            batch = Batch(moveSections: [
                Batch.SectionMove(from: from, to: Int.random(in: 0..<sections, using: &tables.random))
            ])
        case 10 where sections > 0:
            let at = Int.random(in: 0..<sections, using: &tables.random)
            var section = table.sections[at]
            section.rows = RowList(Array(section.rows).shuffled(using: &tables.random).dropLast())
            batch = Batch(reloadSections: [Batch.SectionItem(at: at, section: section)])
        default:
            table = tables.edit(table, count: Int.random(in: 1...3, using: &tables.random))
            return live.update(to: table)
        }
        guard let batch, let applied = try? table.apply(batch) else { return [] }
        var change = LiveView.Change(to: table, by: [applied])
        return live.update(&change)
    }

    /// Applies `steps` to `mirror` (the engine and the reference of UIKit's
    /// rules), checking each says only what changed; then holds the mirror
    /// against the read and the judge. False at the first difference.
    static func follow(
        _ steps: [LiveView.Step], _ mirror: inout Table, table: Table, query: TableQuery, live: LiveView,
        _ note: String
    ) -> Bool {
        let before = mirror
        var reference = mirror
        // The view of an empty query is the table, its stream the table's own:
        // the edits as made (docs/API.md, "Views", Live).
        let exact = !query.isEmpty
        // The ids the update's steps delete and insert: a row in both is moved, not deleted and inserted again.
        var (deletedIDs, insertedIDs) = (Set<String>(), Set<String>())
        for step in steps {
            let batch = step.batch
            guard !batch.isEmpty else { return fail("an empty batch", note) }
            for move in batch.moveRows
            where exact && move.from.row == move.to.row
                && newIndex(ofOldSection: move.from.section, batch, mirror) == move.to.section
            {
                return fail("a move onto its own index path \(move) in \(batch)", note)
            }
            for reload in batch.reloadRows where exact && mirror.row(at: reload.at) == reload.row {
                return fail("a reload of an unchanged row \(reload) in \(batch)", note)
            }
            for reload in batch.reloadSections where exact && mirror.sections[reload.at] == reload.section {
                return fail("a reload of an unchanged section \(reload.at) in \(batch)", note)
            }
            deletedIDs.formUnion(batch.deleteRows.compactMap { mirror.row(at: $0)?.id })
            deletedIDs.formUnion(batch.deleteSections.flatMap { mirror.sections[$0].rows.compactMap(\.id) })
            insertedIDs.formUnion(batch.insertRows.compactMap(\.row.id))
            insertedIDs.formUnion(batch.insertSections.flatMap { $0.section.rows.compactMap(\.id) })
            guard (try? mirror.apply(batch)) != nil, let next = ReferenceBatch.apply(batch, to: reference) else {
                return fail("a batch UIKit refuses: \(batch)", note)
            }
            reference = next
            guard mirror.sections == step.view.sections else { return fail("a step's view is not the mirror", note) }
        }
        let paired = deletedIDs.intersection(insertedIDs)
        guard !exact || paired.isEmpty else {
            return fail("rows deleted and inserted again, not moved: \(paired) in \(steps.map(\.batch))", note)
        }
        let read = query.view(of: table)
        mirror.version = read.version
        let judged = ViewJudge.sections(of: table, query)
        var unchanged = read
        unchanged.version = before.version
        guard read.sections == judged else {
            return fail("the read is not the judge's: \(read.sections) \(judged)", note)
        }
        guard mirror == read, reference.sections == read.sections else {
            return fail("the mirror is not the read: \(steps.map(\.batch))", note)
        }
        guard live.view == read else { return fail("the live view is not the read", note) }
        guard !exact || steps.isEmpty == (unchanged == before) else {
            return fail("an update for a view unchanged, or none for one changed: \(steps.map(\.batch))", note)
        }
        return true
    }

    /// Where old section `s` is after `batch` by UIKit's rules (nil: deleted).
    static func newIndex(ofOldSection s: Int, _ batch: Batch, _ old: Table) -> Int? {
        if batch.deleteSections.contains(s) { return nil }
        if let move = batch.moveSections.first(where: { $0.from == s }) { return move.to }
        let moved = Set(batch.moveSections.map(\.from)).union(batch.deleteSections)
        let rank = (0..<s).count { !moved.contains($0) }
        let taken = Set(batch.insertSections.map(\.at)).union(batch.moveSections.map(\.to))
        var slot = -1
        for _ in 0...rank {
            slot += 1
            while taken.contains(slot) { slot += 1 }
        }
        return slot
    }

    static func fail(_ what: String, _ note: String) -> Bool {
        Issue.record("\(what) (\(note))")
        return false
    }
}
