import SeededRandom
import Testing
@testable import TableModel

/// Random small tables and random batches for them — mostly sensible, often
/// breaking a rule — from a seeded generator.
struct RandomBatches {
    private var rng: SeededGenerator
    private var serial = 0

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    private mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < probability }

    /// Usually a position below `count`; sometimes `count` itself, rarely -1.
    private mutating func position(below count: Int) -> Int {
        if count > 0 && chance(0.95) { return int(0...(count - 1)) }
        return chance(0.95) ? count : -1
    }

    /// How many items one list of a batch gets: often none.
    private mutating func listLength() -> Int { chance(0.75) ? 0 : int(1...2) }

    private mutating func newRow() -> Row {
        serial += 1
        return Row(id: chance(0.4) ? "r\(int(0...11))" : nil, text: "N\(serial)")
    }

    private mutating func newSection() -> Section {
        serial += 1
        let rows = (0..<int(0...3)).map { _ in newRow() }
        return Section(id: chance(0.3) ? "s\(int(0...5))" : nil, header: "S\(serial)", rows: rows)
    }

    /// A table of up to 4 sections of up to 5 rows, with unique ids on some of them.
    mutating func table() -> Table {
        var rowIDs = (0...11).map { "r\($0)" }.shuffled(using: &rng)
        var sectionIDs = (0...5).map { "s\($0)" }.shuffled(using: &rng)
        let sections = (0..<int(0...4)).map { index in
            let rows = (0..<int(0...5)).map { row in
                Row(id: chance(0.5) ? rowIDs.popLast() : nil, text: "\(index).\(row)")
            }
            return Section(id: chance(0.5) ? sectionIDs.popLast() : nil, header: "\(index)", rows: rows)
        }
        return Table(id: "random", version: int(0...3), sections: sections)
    }

    /// A random batch for `table`; with `expect` now and then, right or wrong.
    mutating func batch(for table: Table) -> Batch {
        let sectionCount = table.sections.count
        func rowCount(_ section: Int) -> Int {
            table.sections.indices.contains(section) ? table.sections[section].rows.count : 1
        }
        var batch = Batch(animation: RowAnimation.allCases.randomElement(using: &rng)!)
        for _ in 0..<listLength() { batch.deleteSections.append(position(below: sectionCount)) }
        for _ in 0..<listLength() {
            batch.reloadSections.append(.init(at: position(below: sectionCount), section: newSection()))
        }
        for _ in 0..<listLength() {
            batch.moveSections.append(.init(from: position(below: sectionCount), to: position(below: sectionCount)))
        }
        for _ in 0..<listLength() {
            batch.insertSections.append(.init(at: position(below: sectionCount + 1), section: newSection()))
        }
        func indexPath(extra: Int) -> TableIndexPath {
            let section = position(below: sectionCount)
            return TableIndexPath(section, position(below: rowCount(section) + extra))
        }
        for _ in 0..<listLength() { batch.deleteRows.append(indexPath(extra: 0)) }
        for _ in 0..<listLength() { batch.reloadRows.append(.init(at: indexPath(extra: 0), row: newRow())) }
        for _ in 0..<listLength() { batch.moveRows.append(.init(from: indexPath(extra: 0), to: indexPath(extra: 0))) }
        for _ in 0..<listLength() { batch.insertRows.append(.init(at: indexPath(extra: 1), row: newRow())) }
        if chance(0.1) { batch.properties = TableProperties(title: .some("T\(int(0...9))")) }
        if chance(0.25), let after = ReferenceBatch.apply(batch, to: table) {
            var rows = after.sections.map(\.rows.count)
            if !rows.isEmpty && chance(0.3) { rows[int(0...(rows.count - 1))] += 1 }
            let sections = after.sections.count + (chance(0.1) ? 1 : 0)
            batch.expect = .init(sections: chance(0.5) ? sections : nil, rows: chance(0.7) ? rows : nil)
        }
        return batch
    }

    /// `batch` with every list shuffled.
    mutating func shuffled(_ batch: Batch) -> Batch {
        var batch = batch
        batch.deleteSections.shuffle(using: &rng)
        batch.insertSections.shuffle(using: &rng)
        batch.reloadSections.shuffle(using: &rng)
        batch.moveSections.shuffle(using: &rng)
        batch.deleteRows.shuffle(using: &rng)
        batch.insertRows.shuffle(using: &rng)
        batch.reloadRows.shuffle(using: &rng)
        batch.moveRows.shuffle(using: &rng)
        return batch
    }
}

/// What applying a batch to a copy of a table gave.
private enum Outcome: Equatable {
    case accepted(Table, Batch)
    case refused(BatchError)

    init(_ batch: Batch, on table: Table) {
        var copy = table
        do {
            let normalised = try copy.apply(batch)
            self = .accepted(copy, normalised)
        } catch {
            self =
                copy == table ? .refused(error) : .refused(BatchError(type: "changed", detail: "refused but changed"))
        }
    }
}

@Suite("Batch engine against the reference implementation")
struct BatchPropertyTests {
    @Test("10,000 random batches: same result, same accept or refuse, order does not matter")
    func engineMatchesReference() {
        var random = RandomBatches(seed: 0xB47C_4E5)
        var accepted = 0
        var refused = 0
        var rulesBroken = Set<String>()
        var failures = 0
        for iteration in 0..<10_000 where failures < 5 {
            let table = random.table()
            let batch = random.batch(for: table)
            let outcome = Outcome(batch, on: table)
            let reference = ReferenceBatch.apply(batch, to: table)
            switch (outcome, reference) {
            case let (.accepted(result, normalised), expected?):
                accepted += 1
                if result != expected || normalised != batch.normalised() {
                    failures += 1
                    Issue.record("#\(iteration): engine and reference differ\n\(table)\n\(batch)")
                }
                // The published batch rebuilds the table when replayed on the old one.
                if Outcome(normalised, on: table) != outcome {
                    failures += 1
                    Issue.record("#\(iteration): replaying the normalised batch differs\n\(batch)")
                }
            case let (.refused(error), nil):
                refused += 1
                rulesBroken.insert(error.type)
                if error.rule == nil {
                    failures += 1
                    Issue.record("#\(iteration): refused with an unknown rule: \(error)\n\(batch)")
                }
            default:
                failures += 1
                Issue.record(
                    "#\(iteration): engine \(outcome), reference \(String(describing: reference))\n\(table)\n\(batch)")
            }
            if Outcome(random.shuffled(batch), on: table) != outcome {
                failures += 1
                Issue.record("#\(iteration): shuffling the lists changed the outcome\n\(batch)")
            }
        }
        #expect(failures == 0)
        // Both sides of the rules are well exercised.
        #expect(accepted > 2_000)
        #expect(refused > 2_000)
        #expect(rulesBroken == Set(BatchError.Rule.allCases.map(\.rawValue)))
    }
}
