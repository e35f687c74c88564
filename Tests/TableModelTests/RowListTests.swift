import SeededRandom
import Testing
@testable import TableModel

@Suite("RowList basics")
struct RowListTests {
    typealias F = RowListFixtures

    @Test func emptyList() {
        let list = RowList()
        #expect(list.isEmpty)
        #expect(list.count == 0)
        #expect(Array(list).isEmpty)
        #expect(list.rows(in: 0..<0).isEmpty)
        #expect(list.startIndex == list.endIndex)
        #expect(list.invariantViolations().isEmpty)
        #expect(list == [])
    }

    @Test(arguments: [1, 31, 32, 33, 64, 65, 2_048, 2_049, 5_000, 70_000])
    func buildsFromSequence(size: Int) {
        let rows = F.rows(0..<size)
        let list = RowList(rows)
        #expect(list.count == size)
        #expect(Array(list) == rows)
        #expect(list.invariantViolations().isEmpty)
        #expect(list[0] == rows[0])
        #expect(list[size - 1] == rows[size - 1])
        #expect(list[size / 2] == rows[size / 2])
    }

    @Test func builtTreesAreSoundAtEverySizeUpToAFewLevels() {
        let rows = F.rows(0..<4_000)
        for size in Array(0...1_600) + [2_047, 2_048, 2_049, 3_071, 3_072, 3_073, 4_000] {
            let list = RowList(rows.prefix(size))
            #expect(list.count == size)
            #expect(list.invariantViolations().isEmpty, "size \(size): \(list.invariantViolations())")
        }
    }

    /// Built three quarters full, so that the first inserts after loading find room.
    @Test func builtLeavesAndBranchesLeaveRoomForInserts() {
        var list = RowList(F.rows(0..<100_000))
        var leaves: [RowListNode] = []
        var branches: [RowListNode] = []
        var pending = [list.root]
        while let node = pending.popLast() {
            if node.isLeaf { leaves.append(node) } else { branches.append(node); pending += node.children }
        }
        #expect(
            leaves.allSatisfy {
                $0.rows.count == RowListNode.leafCapacity * 3 / 4
                    || $0.rows.count == RowListNode.leafCapacity * 3 / 4 - 1
            })
        #expect(branches.dropFirst().allSatisfy { $0.children.count <= RowListNode.branchCapacity * 3 / 4 })
        let height = list.height
        for step in 0..<leaves.count {
            list.insert(F.row(100_000 + step), at: step * (RowListNode.leafCapacity * 3 / 4))
        }
        #expect(list.height == height)
        #expect(list.invariantViolations().isEmpty)
    }

    @Test func buildsFromLazySequence() {
        let list = RowList((0..<1_000).lazy.map(F.row))
        #expect(F.numbers(list) == Array(0..<1_000))
        #expect(list.invariantViolations().isEmpty)
    }

    @Test func heightGrowsLogarithmically() {
        #expect(RowList(F.rows(0..<32)).height == 1)
        #expect(RowList(F.rows(0..<33)).height == 2)
        // Built three quarters full: one root holds up to 64 leaves of 24.
        #expect(RowList(F.rows(0..<1_536)).height == 2)
        #expect(RowList(F.rows(0..<1_537)).height == 3)
        #expect(RowList(F.rows(0..<1_000_000)).height == 4)
    }

    @Test func arrayLiteral() {
        let list: RowList = [F.row(1), F.row(2), F.row(3)]
        #expect(F.numbers(list) == [1, 2, 3])
    }

    @Test func insertAtFrontMiddleAndEnd() {
        var list = RowList(F.rows(0..<100))
        var model = Array(0..<100)
        for (number, position) in [(-1, 0), (500, 50), (1_000, 102), (7, 31), (8, 32)] {
            list.insert(F.row(number), at: position)
            model.insert(number, at: position)
        }
        #expect(F.numbers(list) == model)
        #expect(list.invariantViolations().isEmpty)
    }

    @Test func removeReturnsTheRow() {
        var list = RowList(F.rows(0..<100))
        #expect(list.remove(at: 0) == F.row(0))
        #expect(list.remove(at: 98) == F.row(99))
        #expect(list.remove(at: 40) == F.row(41))
        #expect(list.count == 97)
        #expect(list.invariantViolations().isEmpty)
        while !list.isEmpty {
            list.remove(at: list.count / 2)
        }
        #expect(list.invariantViolations().isEmpty)
        #expect(list.height == 1)
    }

    @Test func appendBuildsTheSameRowsAsBulkLoading() {
        var appended = RowList()
        for number in 0..<3_000 {
            appended.append(F.row(number))
        }
        let built = RowList(F.rows(0..<3_000))
        #expect(appended == built)
        #expect(appended.invariantViolations().isEmpty)
        #expect(appended.height == 3)
    }

    @Test func subscriptSetReplacesOneRow() {
        var list = RowList(F.rows(0..<1_000))
        list[0] = F.row(-1)
        list[999] = F.row(-2)
        list[500] = F.row(-3)
        #expect(list[0] == F.row(-1))
        #expect(list[999] == F.row(-2))
        #expect(list[500] == F.row(-3))
        #expect(list[501] == F.row(501))
        #expect(list.count == 1_000)
    }

    @Test func subscriptModifiesAProperty() {
        var list = RowList(F.rows(0..<100))
        list[42].text = "Changed"
        #expect(list[42].text == "Changed")
        #expect(list[41].text == "")
    }

    @Test(arguments: [(0, 99), (99, 0), (10, 11), (11, 10), (5, 5), (31, 64), (70, 3)])
    func moveMatchesRemoveThenInsert(source: Int, destination: Int) {
        var list = RowList(F.rows(0..<100))
        var model = Array(0..<100)
        list.move(from: source, to: destination)
        model.insert(model.remove(at: source), at: destination)
        #expect(F.numbers(list) == model)
        #expect(list.invariantViolations().isEmpty)
    }

    @Test func rowsInRangeAcrossLeavesAndBranches() {
        let list = RowList(F.rows(0..<10_000))
        for range in [0..<0, 0..<1, 31..<33, 0..<10_000, 2_040..<2_100, 9_999..<10_000, 5_000..<5_000, 123..<4_567] {
            #expect(list.rows(in: range).map(F.number(of:)) == Array(range))
        }
    }

    @Test func collectionConformance() {
        let list = RowList(F.rows(0..<500))
        #expect(list.indices == 0..<500)
        #expect(list.first == F.row(0))
        #expect(list.last == F.row(499))
        #expect(list.reversed().map(F.number(of:)) == Array((0..<500).reversed()))
        #expect(list[100..<103].map(F.number(of:)) == [100, 101, 102])
        #expect(list.index(10, offsetBy: 20) == 30)
        #expect(list.firstIndex(of: F.row(321)) == 321)
    }

    @Test func equalityComparesRowsNotShape() {
        var appended = RowList()
        for number in 0..<200 {
            appended.insert(F.row(number), at: appended.count)
        }
        let built = RowList(F.rows(0..<200))
        #expect(appended == built)
        var changed = built
        changed[150] = F.row(-1)
        #expect(changed != built)
        var shorter = built
        shorter.remove(at: 199)
        #expect(shorter != built)
    }

    @Test func sectionStoresRowsInARowList() {
        let section = Section(rows: F.rows(0..<50))
        #expect(section.rows.count == 50)
        #expect(section.rows[49] == F.row(49))
    }
}

@Suite("RowList leaf buffers and building row by row")
struct RowListBufferTests {
    private typealias F = RowListFixtures

    /// Every leaf of a tree, in order.
    private func leaves(_ list: RowList) -> [RowListNode] {
        var leaves: [[Row]] = []
        list.appendLeaves(to: &leaves)
        var nodes: [RowListNode] = []
        var pending = [list.root]
        while let node = pending.popLast() {
            if node.isLeaf { nodes.append(node) } else { pending += node.children.reversed() }
        }
        #expect(nodes.filter { !$0.rows.isEmpty }.map(\.rows) == leaves)
        return nodes
    }

    @Test("the leaves of a tree all have buffers of one size, through building, splits, merges and copies")
    func leafBuffersKeepOneSize() {
        var list = RowList(F.rows(0..<5_000))
        let copy = list
        var random = SeededGenerator(seed: 7)
        for step in 0..<3_000 {
            let count = list.count
            switch step % 3 {
            case 0: list.insert(F.row(10_000 + step), at: Int.random(in: 0...count, using: &random))
            case 1: list.remove(at: Int.random(in: 0..<count, using: &random))
            default:
                list.move(
                    from: Int.random(in: 0..<count, using: &random), to: Int.random(in: 0..<count, using: &random))
            }
        }
        #expect(list.invariantViolations().isEmpty)
        #expect(leaves(list).allSatisfy { $0.rows.capacity >= RowListNode.leafBufferCapacity })
        #expect(leaves(copy).allSatisfy { $0.rows.capacity >= RowListNode.leafBufferCapacity })
        #expect(F.numbers(copy) == Array(0..<5_000))
        // A small list is one leaf of its own size.
        #expect(RowList(F.rows(0..<3)).root.rows.capacity < RowListNode.leafBufferCapacity)
    }

    @Test("a builder makes the tree init(_:) makes", arguments: [0, 1, 32, 33, 100, 1_537, 20_000])
    func builderMatchesInit(count: Int) {
        var builder = RowList.Builder(expectedCount: count)
        for number in 0..<count { builder.append(F.row(number)) }
        let built = builder.build()
        let expected = RowList(F.rows(0..<count))
        #expect(F.numbers(built) == Array(0..<count))
        #expect(built.invariantViolations().isEmpty)
        #expect(built.height == expected.height)
        #expect(leaves(built).map(\.rows.count) == leaves(expected).map(\.rows.count))
    }

    @Test(
        "a builder given fewer or more rows than expected still builds them all",
        arguments: [(100, 40), (100, 130), (5, 0)])
    func builderWithAnotherCount(expected: Int, actual: Int) {
        var builder = RowList.Builder(expectedCount: expected)
        for number in 0..<actual { builder.append(F.row(number)) }
        let built = builder.build()
        #expect(F.numbers(built) == Array(0..<actual))
        #expect(built.invariantViolations().isEmpty)
    }
}
