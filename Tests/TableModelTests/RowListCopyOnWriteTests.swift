import Testing
@testable import TableModel

@Suite("RowList copy-on-write and large lists")
struct RowListCopyOnWriteTests {
    typealias F = RowListFixtures

    @Test func editingACopyLeavesTheOriginal() {
        let original = RowList(F.rows(0..<10_000))
        var copy = original
        copy.insert(F.row(-1), at: 5_000)
        copy.remove(at: 0)
        copy[9_000] = F.row(-2)
        copy.move(from: 10, to: 9_990)
        copy.append(F.row(-3))
        for _ in 0..<4_000 {
            copy.remove(at: copy.count / 3)
        }
        #expect(F.numbers(original) == Array(0..<10_000))
        #expect(original.invariantViolations().isEmpty)
        #expect(copy.invariantViolations().isEmpty)
        #expect(copy.count == 6_001)
        #expect(copy.last == F.row(-3))
    }

    @Test func editingTheOriginalLeavesACopy() {
        var original = RowList(F.rows(0..<10_000))
        let copy = original
        for number in 0..<3_000 {
            original.insert(F.row(-number), at: number * 3)
        }
        original[0] = F.row(-99)
        #expect(F.numbers(copy) == Array(0..<10_000))
        #expect(original.count == 13_000)
        #expect(original.invariantViolations().isEmpty)
    }

    @Test func aSharedTreeCopiesOnlyThePath() throws {
        let original = RowList(F.rows(0..<100_000))
        try #require(original.height >= 3)
        var copy = original
        copy[50_000] = F.row(-1)
        #expect(copy.root !== original.root)
        let copiedChildren = zip(copy.root.children, original.root.children).filter { $0 !== $1 }
        #expect(copiedChildren.count == 1)
        #expect(original[50_000] == F.row(50_000))
        #expect(copy[50_000] == F.row(-1))
    }

    @Test func aUniqueTreeIsEditedInPlace() {
        var list = RowList(F.rows(0..<100_000))
        // Identities only: holding the nodes themselves would share them.
        let root = ObjectIdentifier(list.root)
        let firstChild = ObjectIdentifier(list.root.children[0])
        list[10] = F.row(-1)
        list.insert(F.row(-2), at: 50_000)
        list.remove(at: 70_000)
        #expect(ObjectIdentifier(list.root) == root)
        #expect(ObjectIdentifier(list.root.children[0]) == firstChild)
    }

    @Test func rebalancingAUniqueTreeCopiesNoNode() {
        var list = RowList(F.rows(0..<1_000))
        let leaves = Set(list.root.children.map(ObjectIdentifier.init))
        for _ in 0..<40 {
            list.remove(at: 0)
        }
        #expect(Set(list.root.children.map(ObjectIdentifier.init)).isSubset(of: leaves))
        #expect(F.numbers(list) == Array(40..<1_000))
    }

    @Test func anIteratorKeepsTheRowsItStartedWith() {
        var list = RowList(F.rows(0..<1_000))
        var iterator = list.makeIterator()
        #expect(iterator.next() == F.row(0))
        list.remove(at: 1)
        list[2] = F.row(-1)
        var seen = [0]
        while let row = iterator.next() {
            seen.append(F.number(of: row))
        }
        #expect(seen == Array(0..<1_000))
    }

    @Test func aMillionRows() {
        var list = RowList((0..<1_000_000).lazy.map(F.row))
        #expect(list.count == 1_000_000)
        #expect(list.height == 4)
        list.insert(F.row(-1), at: 500_000)
        list.remove(at: 0)
        list.move(from: 999_999, to: 1)
        list[250_000] = F.row(-2)
        list.append(F.row(-3))
        #expect(list.count == 1_000_001)
        #expect(list[0] == F.row(1))
        #expect(list[1] == F.row(999_999))
        #expect(list[2] == F.row(2))
        #expect(list[250_000] == F.row(-2))
        #expect(list[499_999] == F.row(499_999))
        #expect(list[500_000] == F.row(-1))
        #expect(list[500_001] == F.row(500_000))
        #expect(list[999_999] == F.row(999_998))
        #expect(list[1_000_000] == F.row(-3))
        #expect(list.rows(in: 700_000..<700_003).map(F.number(of:)) == [699_999, 700_000, 700_001])
        #expect(list.invariantViolations().isEmpty)
    }
}
