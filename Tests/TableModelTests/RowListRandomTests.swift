import SeededRandom
import Testing
@testable import TableModel

/// Random edits of a `RowList`, checked against a plain array of the same rows.
@Suite("RowList against an array")
struct RowListRandomTests {
    typealias F = RowListFixtures

    /// One run: grows a tree past three levels, shrinks it to nothing, grows it again.
    @Test(arguments: PropertyRuns.seeds([1, 42, 2_024]))
    func mixedOperationsMatchAnArray(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var list = RowList(F.rows(0..<3_000))
        var model = Array(0..<3_000)
        var nextNumber = 3_000
        var tallest = list.height
        // Percent chance that an insertion (rather than a removal) is chosen, by phase.
        let phases: [(operations: Int, insertPercent: Int)] = [(8_000, 80), (16_000, 10), (6_000, 80)]
        // A copy taken now and then: later edits must not reach it, and editing a
        // shared tree takes the copy-on-write paths of every operation.
        var snapshot = (list: list, model: model)
        var step = 0
        for phase in phases {
            for _ in 0..<phase.operations {
                step += 1
                apply(
                    randomOperation(insertPercent: phase.insertPercent, count: model.count, using: &random),
                    to: &list, model: &model, nextNumber: &nextNumber
                )
                if step.isMultiple(of: 250) {
                    #expect(F.numbers(list) == model, "step \(step)")
                    try #require(list.invariantViolations() == [], "step \(step)")
                    tallest = max(tallest, list.height)
                }
                if step.isMultiple(of: 1_000) {
                    #expect(F.numbers(snapshot.list) == snapshot.model, "snapshot at step \(step)")
                    try #require(snapshot.list.invariantViolations() == [], "snapshot at step \(step)")
                    snapshot = (list, model)
                }
            }
        }
        #expect(F.numbers(list) == model)
        #expect(list.invariantViolations() == [])
        #expect(tallest >= 3)
    }

    enum Operation {
        case insert(at: Int)
        case remove(at: Int)
        case set(at: Int)
        case append
        case move(from: Int, to: Int)
        case read(at: Int)
        case page(Range<Int>)
    }

    func randomOperation(insertPercent: Int, count: Int, using random: inout SeededGenerator) -> Operation {
        guard count > 0 else { return Bool.random(using: &random) ? .append : .insert(at: 0) }
        let position = Int.random(in: 0..<count, using: &random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<50:
            guard Int.random(in: 0..<100, using: &random) < insertPercent else { return .remove(at: position) }
            return Bool.random(using: &random) ? .insert(at: Int.random(in: 0...count, using: &random)) : .append
        case 50..<62: return .set(at: position)
        case 62..<74: return .move(from: position, to: Int.random(in: 0..<count, using: &random))
        case 74..<88: return .read(at: position)
        default:
            let length = Int.random(in: 0...min(200, count - position), using: &random)
            return .page(position..<(position + length))
        }
    }

    func apply(_ operation: Operation, to list: inout RowList, model: inout [Int], nextNumber: inout Int) {
        switch operation {
        case .insert(let position):
            list.insert(F.row(nextNumber), at: position)
            model.insert(nextNumber, at: position)
            nextNumber += 1
        case .append:
            list.append(F.row(nextNumber))
            model.append(nextNumber)
            nextNumber += 1
        case .remove(let position):
            #expect(F.number(of: list.remove(at: position)) == model.remove(at: position))
        case .set(let position):
            list[position] = F.row(nextNumber)
            model[position] = nextNumber
            nextNumber += 1
        case .move(let source, let destination):
            list.move(from: source, to: destination)
            model.insert(model.remove(at: source), at: destination)
        case .read(let position):
            #expect(list[position] == F.row(model[position]))
        case .page(let range):
            #expect(list.rows(in: range).map(F.number(of:)) == Array(model[range]))
        }
        #expect(list.count == model.count)
    }
}
