import SeededRandom
import Testing
@testable import TableModel

private typealias F = DiffFixture

@Suite("Snapshot diff: building blocks")
struct DiffSupportTests {
    @Test("a flat snapshot reads every row in place, in order, with its section and index")
    func flatSnapshotReadsRows() {
        // Sections of 0, 1, 100 and 1,000 rows: empty, one leaf, several leaves, a deeper tree.
        let sections = [0, 1, 100, 1_000].enumerated().map { index, count in
            Section(id: "s\(index)", rows: (0..<count).map { Row(id: "r\(index)-\($0)", text: "\($0)") })
        }
        let flat = FlatSnapshot(sections)
        let expected = sections.flatMap { Array($0.rows) }
        #expect(flat.count == expected.count)
        #expect(flat.indices.map { flat.row($0) } == expected)
        #expect(flat.indices.map { flat.id($0) } == expected.map(\.id))
        #expect(flat.indices.allSatisfy { flat.hasID($0) })
        #expect(flat.start == [0, 0, 1, 101, 1_101])
        #expect(flat.rowIndex(flat.start[3] + 7) == 7 && flat.sectionOf[flat.start[3] + 7] == 3)
        #expect(flat.idsAreASCII && !flat.hasRowsWithoutID)
        #expect(flat.rowEquals(5, 5, of: flat) && !flat.rowEquals(5, 6, of: flat))
        var ascii = true
        #expect(flat.idHashes[42] == RowKey.hash(expected[42].id!, isASCII: &ascii))
    }

    @Test("a flat snapshot knows which rows have ids, the first one without one included")
    func flatSnapshotRowsWithoutIDs() {
        let rows = [Row(text: "first"), Row(id: "a", text: "a"), Row(text: "plain"), Row(id: "b", text: "b")]
        let flat = FlatSnapshot([Section(id: "s0", rows: rows), Section(id: "s1", rows: [Row(id: "c", text: "c")])])
        #expect(flat.hasRowsWithoutID)
        #expect(flat.indices.map { flat.hasID($0) } == [false, true, false, true, true])
        #expect(flat.indices.map { flat.id($0) } == [nil, "a", nil, "b", "c"])
        #expect(flat.idHashes[0] == 0 && flat.idHashes[2] == 0)
        #expect(!flat.sameID(0, 0, of: flat) && !flat.sameID(0, 2, of: flat))
        #expect(flat.sameID(1, 1, of: flat) && !flat.sameID(1, 3, of: flat))
    }

    @Test("ids compared as bytes: every length around a word, a prefix, one byte apart; as strings when not ASCII")
    func sameIDs() {
        func snapshot(_ ids: [String]) -> FlatSnapshot {
            FlatSnapshot([Section(id: "s", rows: ids.map { Row(id: $0, text: "") })])
        }
        // Each id, then the same id in another buffer, then one differing in its last byte, then a prefix.
        let ids = (0...20).map { String(repeating: "x", count: $0) + "yz" }
        let old = snapshot(ids)
        let new = snapshot(
            ids.flatMap {
                [String(decoding: Array($0.utf8), as: UTF8.self), $0.dropLast() + "Z", String($0.dropLast())]
            })
        #expect(old.idsAreASCII && new.idsAreASCII)
        for index in ids.indices {
            #expect(old.sameID(index, 3 * index, of: new))
            #expect(!old.sameID(index, 3 * index + 1, of: new))
            #expect(!old.sameID(index, 3 * index + 2, of: new))
        }
        // "é" precomposed and decomposed: different bytes, equal strings.
        let accented = snapshot(["caf\u{E9}", "x"])
        let decomposed = snapshot(["cafe\u{301}", "y"])
        #expect(!accented.idsAreASCII && !decomposed.idsAreASCII)
        #expect(accented.sameID(0, 0, of: decomposed) && !accented.sameID(1, 1, of: decomposed))
    }

    @Test("rows compared in place: same bytes, or equal content in other buffers, or different")
    func sameContent() {
        func same(_ a: Row, _ b: Row) -> Bool {
            withUnsafePointer(to: a) { a in withUnsafePointer(to: b) { b in Row.sameContent(a, b) } }
        }
        let long = String(repeating: "long text ", count: 5)
        let row = Row(id: "r", text: long, height: 0)
        var copy = row
        copy.text = String(decoding: Array(long.utf8), as: UTF8.self)  // the same text in another buffer
        var negativeZero = row
        negativeZero.height = -0.0
        var changed = row
        changed.detail = "d"
        #expect(same(row, row))
        #expect(same(row, copy))
        #expect(same(row, negativeZero))
        #expect(!same(row, changed))
        #expect(!same(Row(text: "a"), Row(text: "b")))
    }

    @Test("ids hash equal exactly as their bytes are equal, and non-ASCII ones are flagged")
    func rowKeyHash() {
        var ascii = true
        // Every length around the 8-byte words the hash reads.
        let ids =
            (0...40).map { String(repeating: "a", count: $0) } + ["r1", "r2", "1r", "row 12345678", "row 12345679"]
        let hashes = ids.map { RowKey.hash($0, isASCII: &ascii) }
        #expect(ascii)
        #expect(Set(hashes).count == ids.count)
        // The same text in other storage (a fresh heap buffer, not a small string) hashes the same.
        #expect(ids.map { RowKey.hash(String(decoding: Array($0.utf8), as: UTF8.self), isASCII: &ascii) } == hashes)
        _ = RowKey.hash("caf\u{E9}", isASCII: &ascii)
        #expect(!ascii)
    }

    @Test("ids equal as Swift strings but not in bytes still match: a row, not a delete and an insert")
    func canonicallyEquivalentIDs() throws {
        let old = F.table([F.section("s", ["caf\u{E9}", "b"])])
        var new = F.table([F.section("s", ["b", "cafe\u{301}"])])
        new.sections[0].rows[1].text = "caf\u{E9}"
        let batches = F.expectDiff(from: old, to: new)
        let batch = try #require(batches.first)
        #expect(batch.deleteRows.isEmpty && batch.insertRows.isEmpty)
        #expect(batch.moveRows.count == 1)
    }

    @Test("matching pairs equal keys in order, whatever their hashes collide with")
    func matchingWithCollisions() {
        // Every key hashes to the same slot: the table must still compare keys.
        let old = ["a", "b", "a", "c", "a"]
        let new = ["a", "c", "x", "a", "b"]
        var matching = Matching(oldCount: old.count, newCount: new.count)
        matching.pair(
            old: old.indices, new: new.indices,
            oldHash: { _ in 7 }, newHash: { _ in 7 },
            sameOld: { old[$0] == old[$1] }, sameKey: { old[$0] == new[$1] })
        #expect(Array(matching.newToOld) == [0, 3, -1, 2, 1])
        #expect(Array(matching.oldToNew) == [0, 4, 3, 1, -1])
    }

    @Test("matching leaves keyless and already paired items alone")
    func matchingSkips() {
        var matching = Matching(oldCount: 3, newCount: 3)
        let keys: [Int?] = [1, nil, 2]
        matching.pair(
            old: 0..<1, new: 0..<3,
            oldHash: { keys[$0] }, newHash: { keys[$0] },
            sameOld: { keys[$0] == keys[$1] }, sameKey: { keys[$0] == keys[$1] })
        #expect(Array(matching.newToOld) == [0, -1, -1])
        matching.pair(
            old: 0..<3, new: 0..<3,
            oldHash: { keys[$0] }, newHash: { keys[$0] },
            sameOld: { keys[$0] == keys[$1] }, sameKey: { keys[$0] == keys[$1] })
        #expect(Array(matching.newToOld) == [0, -1, 2])
    }

    @Test("compact indexes keep every index and -1 through 32 bits")
    func compactIndexes() {
        var indexes = CompactIndexes(repeating: -1, count: 4)
        #expect(Array(indexes) == [-1, -1, -1, -1])
        let values = [0, Int(Int32.max) - 1, 123_456_789, -1]
        for (position, value) in values.enumerated() { indexes[position] = value }
        #expect(Array(indexes) == values)
        #expect(Array(CompactIndexes([3, -1, 7])) == [3, -1, 7])
    }

    @Test("sorting only when needed gives what sorting gives, in order or not")
    func sortIfNeeded() {
        var random = SeededGenerator(seed: 7)
        for count in [0, 1, 2, 5, 40] {
            let sorted = Array(0..<count)
            var shuffled = sorted.shuffled(using: &random)
            if count > 1 && shuffled == sorted { shuffled.swapAt(0, 1) }
            for values in [sorted, shuffled, sorted.reversed()] {
                var result = values
                result.sortIfNeeded(by: <)
                #expect(result == sorted)
            }
        }
    }

    @Test("the longest increasing subsequence is as long as a quadratic search finds", arguments: [1, 2, 3])
    func longestIncreasing(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let count = Int.random(in: 0...40, using: &random)
            // Mostly increasing runs (the fast path) with some shuffling.
            var values = Array(0..<count)
            for _ in 0..<Int.random(in: 0...count, using: &random) {
                values.swapAt(Int.random(in: 0..<count, using: &random), Int.random(in: 0..<count, using: &random))
            }
            let kept = longestIncreasingSubsequence(values)
            let chosen = values.indices.filter { kept[$0] }.map { values[$0] }
            #expect(zip(chosen, chosen.dropFirst()).allSatisfy { $0 < $1 })
            var best = [Int](repeating: 1, count: count)
            for i in values.indices {
                for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
            }
            #expect(chosen.count == (best.max() ?? 0))
        }
    }
}
