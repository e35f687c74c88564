import SeededRandom
import Testing
@testable import TableModel

/// A plain model of a diffable snapshot: sections holding arrays of rows, each
/// edit done directly, the way `NSDiffableDataSourceSnapshot` does it. Checks
/// happen in the order the translation makes them, so both refuse alike.
struct SnapshotReference {
    var sections: [(section: Section, rows: [Row])]

    init(_ table: Table) {
        sections = table.sections.map { ($0, Array($0.rows)) }
    }

    private func find(_ id: String) -> (section: Int, row: Int)? {
        for (s, section) in sections.enumerated() {
            if let r = section.rows.firstIndex(where: { $0.id == id }) { return (s, r) }
        }
        return nil
    }

    private func section(_ id: String) -> Int? { sections.firstIndex { $0.section.id == id } }

    private func unique(_ ids: [String?]) -> Bool {
        let present = ids.compactMap { $0 }
        return Set(present).count == present.count
    }

    private func place(_ place: IdentifiedEdit.ItemPlace) throws(BatchError) -> (Int, Int) {
        switch place {
        case .before(let id):
            guard let found = find(id) else { throw BatchError(type: "unknown-id", detail: "") }
            return found
        case .after(let id):
            guard let found = find(id) else { throw BatchError(type: "unknown-id", detail: "") }
            return (found.section, found.row + 1)
        case .end(let id?):
            guard let s = section(id) else { throw BatchError(type: "unknown-id", detail: "") }
            return (s, sections[s].rows.count)
        case .end(nil):
            guard !sections.isEmpty else { throw BatchError(type: "invalid-update", detail: "") }
            return (sections.count - 1, sections[sections.count - 1].rows.count)
        }
    }

    private func place(_ place: IdentifiedEdit.SectionPlace) throws(BatchError) -> Int {
        switch place {
        case .before(let id), .after(let id):
            guard let s = section(id) else { throw BatchError(type: "unknown-id", detail: "") }
            if case .after = place { return s + 1 }
            return s
        case .end: return sections.count
        }
    }

    mutating func perform(_ edit: IdentifiedEdit) throws(BatchError) {
        func fail(_ type: String) -> BatchError { BatchError(type: type, detail: "") }
        switch edit {
        case .insertItems(let rows, let where_):
            var seen = Set<String>()
            for row in rows {
                guard let id = row.id else { throw fail("missing-id") }
                guard find(id) == nil, seen.insert(id).inserted else { throw fail("duplicate-id") }
            }
            let (s, r) = try place(where_)
            sections[s].rows.insert(contentsOf: rows, at: r)
        case .deleteItems(let ids):
            guard unique(ids) else { throw fail("duplicate-id") }
            for id in ids {
                guard let (s, r) = find(id) else { throw fail("unknown-id") }
                sections[s].rows.remove(at: r)
            }
        case .moveItem(let id, let where_):
            guard let (s, r) = find(id) else { throw fail("unknown-id") }
            if where_ == .before(id) || where_ == .after(id) { throw fail("move-relative-to-itself") }
            let row = sections[s].rows.remove(at: r)
            let (ts, tr) = try place(where_)
            sections[ts].rows.insert(row, at: tr)
        case .reloadItems(let rows), .reconfigureItems(let rows):
            guard unique(rows.map(\.id)) else { throw fail("duplicate-id") }
            for row in rows {
                guard let id = row.id else { throw fail("missing-id") }
                guard let (s, r) = find(id) else { throw fail("unknown-id") }
                sections[s].rows[r] = row
            }
        case .insertSections(let new, let where_):
            var at = try place(where_)
            for section in new {
                guard let id = section.id else { throw fail("missing-id") }
                guard self.section(id) == nil else { throw fail("duplicate-id") }
                var rows: [Row] = []
                for row in section.rows {
                    guard let rowID = row.id else { throw fail("missing-id") }
                    guard find(rowID) == nil, !rows.contains(where: { $0.id == rowID }) else {
                        throw fail("duplicate-id")
                    }
                    rows.append(row)
                }
                sections.insert((section, rows), at: at)
                at += 1
            }
        case .deleteSections(let ids):
            guard unique(ids) else { throw fail("duplicate-id") }
            for id in ids {
                guard let s = section(id) else { throw fail("unknown-id") }
                sections.remove(at: s)
            }
        case .moveSection(let id, let where_):
            guard let s = section(id) else { throw fail("unknown-id") }
            if where_ == .before(id) || where_ == .after(id) { throw fail("move-relative-to-itself") }
            let moved = sections.remove(at: s)
            sections.insert(moved, at: try place(where_))
        case .reloadSections(let new):
            guard unique(new.map(\.id)) else { throw fail("duplicate-id") }
            for section in new {
                guard let id = section.id else { throw fail("missing-id") }
                guard let s = self.section(id) else { throw fail("unknown-id") }
                sections[s].section = section
            }
        }
    }

    /// The sections as a table would hold them.
    var result: [Section] {
        sections.map {
            Section(
                id: $0.section.id, header: $0.section.header, footer: $0.section.footer,
                indexTitle: $0.section.indexTitle, rows: $0.rows)
        }
    }
}

/// Random edit lists on random tables: the one index batch the translation
/// makes must be accepted by the batch engine and give what the plain model
/// gives, and a list the plain model refuses must be refused with the same rule.
struct RandomIdentifiedEdits {
    private var rng: SeededGenerator
    private var serial = 0
    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    private mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < probability }

    mutating func table() -> Table {
        var rowIDs = (0...15).map { "r\($0)" }.shuffled(using: &rng)
        var sectionIDs = (0...5).map { "s\($0)" }.shuffled(using: &rng)
        let sections = (0..<int(0...4)).map { index in
            let rows = (0..<int(0...5)).map { row in
                Row(id: chance(0.85) ? rowIDs.popLast() : nil, text: "\(index).\(row)")
            }
            return Section(id: chance(0.85) ? sectionIDs.popLast() : nil, header: "\(index)", rows: rows)
        }
        return Table(id: "random", sections: sections)
    }

    /// Ids in the table when the edits were made: most edits name one of them.
    private var rowIDs: [String] = []
    private var sectionIDs: [String] = []

    private mutating func rowID() -> String {
        chance(0.85) && !rowIDs.isEmpty ? rowIDs.randomElement(using: &rng)! : "r\(int(0...19))"
    }

    private mutating func sectionID() -> String {
        chance(0.85) && !sectionIDs.isEmpty ? sectionIDs.randomElement(using: &rng)! : "s\(int(0...7))"
    }

    private mutating func newRow() -> Row {
        serial += 1
        return Row(id: chance(0.97) ? rowID() : nil, text: "N\(serial)")
    }

    private mutating func itemPlace() -> IdentifiedEdit.ItemPlace {
        switch int(0...3) {
        case 0: .before(rowID())
        case 1: .after(rowID())
        case 2: .end(section: sectionID())
        default: .end(section: nil)
        }
    }

    private mutating func sectionPlace() -> IdentifiedEdit.SectionPlace {
        switch int(0...2) {
        case 0: .before(sectionID())
        case 1: .after(sectionID())
        default: .end
        }
    }

    private mutating func newSection() -> Section {
        serial += 1
        return Section(id: sectionID(), header: "S\(serial)", rows: (0..<int(0...2)).map { _ in newRow() })
    }

    mutating func edit() -> IdentifiedEdit {
        switch int(0...12) {
        case 0, 1: .insertItems((0..<int(1...2)).map { _ in newRow() }, itemPlace())
        case 2, 3: .deleteItems((0..<int(1...2)).map { _ in rowID() })
        case 4, 5, 6: .moveItem(rowID(), itemPlace())
        case 7: .reloadItems([newRow()])
        case 8: .reconfigureItems([newRow()])
        case 9: .insertSections([newSection()], sectionPlace())
        case 10: .deleteSections([sectionID()])
        case 11: .moveSection(sectionID(), sectionPlace())
        default: .reloadSections([Section(id: sectionID(), header: "R\(serial)")])
        }
    }

    mutating func edits(for table: Table) -> [IdentifiedEdit] {
        rowIDs = table.sections.flatMap { $0.rows.compactMap(\.id) }
        sectionIDs = table.sections.compactMap(\.id)
        return (0..<int(1...6)).map { _ in edit() }
    }
}

@Suite("Edits by id, random")
struct IdentifiedEditPropertyTests {
    @Test("The translated batch does what the edits do, or both refuse with one rule")
    func matchesReference() {
        var random = RandomIdentifiedEdits(seed: 0x1D_ED17)
        var failures = 0
        var accepted = 0
        var rules = Set<String>()
        for iteration in 0..<20_000 where failures < 5 {
            let table = random.table()
            let edits = random.edits(for: table)
            var reference = SnapshotReference(table)
            var referenceError: BatchError?
            do throws(BatchError) {
                for edit in edits { try reference.perform(edit) }
            } catch {
                referenceError = error
            }
            do throws(BatchError) {
                let batch = try IdentifiedBatch(edits: edits).translated(for: table)
                if let referenceError {
                    failures += 1
                    Issue.record(
                        "#\(iteration): translated, the reference refused (\(referenceError.type))\n\(table)\n\(edits)")
                    continue
                }
                var applied = table
                _ = try applied.apply(batch)
                accepted += 1
                if applied.sections != reference.result {
                    failures += 1
                    Issue.record("#\(iteration): result differs\n\(table)\n\(edits)\n\(batch)")
                }
            } catch {
                if referenceError?.type != error.type {
                    failures += 1
                    Issue.record(
                        "#\(iteration): \(error) (\(error.type)); reference \(String(describing: referenceError?.type))\n\(table)\n\(edits)"
                    )
                }
                rules.insert(error.type)
            }
        }
        #expect(failures == 0)
        #expect(accepted > 3_000)
        #expect(rules == Set(IdentifiedEditRule.allCases.map(\.rawValue) + ["duplicate-id", "invalid-update"]))
    }
}
