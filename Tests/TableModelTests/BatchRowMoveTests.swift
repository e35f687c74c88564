import SeededRandom
import Testing
@testable import TableModel

/// The one-row-move plan (`BatchValidation+RowMove.swift`) against the checks
/// for any batch, and against the reference implementation.
@Suite("One row moved: the short plan")
struct BatchRowMoveTests {
    /// What a plan says, in a form two plans can be compared by.
    private static func describe(_ plan: BatchPlan) -> String {
        let removals = plan.removals.sorted { $0.key < $1.key }.map { section, removals in
            "\(section):" + removals.map { "\($0.row)/\($0.move ?? -1)" }.joined(separator: ",")
        }
        let insertions = plan.insertions.sorted { $0.key < $1.key }.map { section, insertions in
            "\(section):"
                + insertions.map { insertion -> String in
                    switch insertion.source {
                    case .moved(let index): "\(insertion.row)/m\(index)"
                    case .inserted(let row): "\(insertion.row)/i\(row.text)"
                    }
                }.joined(separator: ",")
        }
        let map = "\(plan.sections.countBefore)>\(plan.sections.countAfter) \(plan.sections.isIdentity)"
        return "\(map) -\(removals) +\(insertions) \(plan.ids.addedRowIDs) \(plan.ids.removedRowIDs)"
    }

    private static func outcome(_ plan: () throws(BatchError) -> BatchPlan) -> String {
        do throws(BatchError) {
            return describe(try plan())
        } catch {
            return "refused: \(error)"
        }
    }

    @Test("5,000 random single moves, in range or not: the same plan or the same refusal")
    func theShortPlanIsThePlanInFull() {
        var rng = SeededGenerator(seed: 0x40E_3ABC)
        var random = RandomBatches(seed: 0x40E_3ABD)
        var accepted = 0
        var refusals = Set<String>()
        for _ in 0..<5_000 {
            let table = random.table()
            let sections = table.sections.count
            // Mostly in range; now and then one past either end.
            func position(below count: Int) -> Int {
                Int.random(in: 0..<10, using: &rng) < 8 && count > 0
                    ? Int.random(in: 0..<count, using: &rng) : [-1, count, count + 1].randomElement(using: &rng)!
            }
            func indexPath() -> TableIndexPath {
                let section = position(below: sections)
                let rows = table.sections.indices.contains(section) ? table.sections[section].rows.count : 2
                return TableIndexPath(section, position(below: rows + 1))
            }
            let move = Batch.RowMove(from: indexPath(), to: indexPath())
            let batch = Batch(moveRows: [move])
            #expect(batch.onlyRowMove == move)
            let short = Self.outcome { () throws(BatchError) in try BatchValidation.plan(batch, expect: nil, on: table)
            }
            let full = Self.outcome { () throws(BatchError) in
                try BatchValidation.planInFull(batch, expect: nil, on: table)
            }
            #expect(short == full, "\(table)\n\(move)")
            if short.hasPrefix("refused") { refusals.insert(String(short.prefix(40))) } else { accepted += 1 }
            // The applied table is the reference's.
            var copy = table
            if (try? copy.apply(batch)) != nil {
                #expect(copy == ReferenceBatch.apply(batch, to: table))
            } else {
                #expect(ReferenceBatch.apply(batch, to: table) == nil)
            }
        }
        #expect(accepted > 500)
        #expect(refusals.count >= 4)
    }

    @Test func onlyABatchOfOneRowMoveAndNothingElseTakesTheShortPlan() {
        let move = Batch.RowMove(from: TableIndexPath(0, 0), to: TableIndexPath(0, 1))
        #expect(Batch(moveRows: [move]).onlyRowMove == move)
        #expect(Batch(moveRows: [move, move]).onlyRowMove == nil)
        #expect(Batch(deleteRows: [TableIndexPath(0, 2)], moveRows: [move]).onlyRowMove == nil)
        #expect(Batch(moveRows: [move], press: .init(at: TableIndexPath(0, 0), id: nil)).onlyRowMove == nil)
        #expect(Batch(moveRows: [move], expect: .init(sections: 1)).onlyRowMove == nil)
        #expect(Batch(moveRows: [move], properties: TableProperties(title: .some("T"))).onlyRowMove == nil)
    }
}
