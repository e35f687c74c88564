import Dispatch
@testable import MicroHTTP
import Testing

/// The table kept answers are looked up in, by the path's bytes.
@Suite struct AnswerTableTests {
    private func lookUp(_ table: AnswerTable<Int>, _ path: String) -> Int? {
        Array(path.utf8).withUnsafeBytes { table.value(for: $0) }
    }

    @discardableResult
    private func set(_ table: AnswerTable<Int>, _ path: String, _ value: Int) -> Int? {
        Array(path.utf8).withUnsafeBytes { table.set(value, for: $0) }
    }

    @Test func findsEveryPathKeptAsTheTableGrows() {
        let table = AnswerTable<Int>()
        let paths = (0..<5_000).map { "/api/tables/t/sections/\($0 % 7)/rows/\($0)" }
        for (index, path) in paths.enumerated() {
            #expect(set(table, path, index) == nil)
        }
        #expect(table.count == paths.count)
        for (index, path) in paths.enumerated() {
            #expect(lookUp(table, path) == index)
        }
        #expect(lookUp(table, "/api/tables/t/sections/0/rows/5000") == nil)
        #expect(lookUp(table, "/api/tables/t/sections/0/rows/") == nil)
        #expect(lookUp(table, "") == nil)
    }

    @Test func settingAPathAgainReplacesItsValueInPlace() {
        let table = AnswerTable<Int>()
        set(table, "/a", 1)
        set(table, "/b", 2)
        #expect(set(table, "/a", 3) == 1)
        #expect(table.count == 2)
        #expect(lookUp(table, "/a") == 3)
        #expect(lookUp(table, "/b") == 2)
    }

    @Test func pathsThatShareAPrefixOrALengthAreDistinct() {
        let table = AnswerTable<Int>()
        set(table, "/rows/1", 1)
        set(table, "/rows/10", 10)
        set(table, "/rows/2", 2)
        #expect(lookUp(table, "/rows/1") == 1)
        #expect(lookUp(table, "/rows/10") == 10)
        #expect(lookUp(table, "/rows/2") == 2)
        #expect(lookUp(table, "/rows/3") == nil)
    }

    @Test func removeAllEmptiesTheTableForReuse() {
        let table = AnswerTable<Int>()
        for index in 0..<100 {
            set(table, "/\(index)", index)
        }
        table.removeAll()
        #expect(table.count == 0)
        #expect(lookUp(table, "/7") == nil)
        set(table, "/7", 70)
        #expect(lookUp(table, "/7") == 70)
    }
}

/// Shards per thread: one for each thread that asks, the same one each time.
@Suite struct PerThreadTests {
    final class Counter: @unchecked Sendable {
        var value = 0
    }

    @Test func eachThreadGetsItsOwnShardAndKeepsIt() {
        let shards = PerThread { Counter() }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            // concurrentPerform may run iterations on the same thread; each
            // thread's shard counts only what that thread added.
            for _ in 0..<1_000 {
                shards.current.value += 1
            }
        }
        let here = shards.current
        #expect(here === shards.current)
        let all = shards.all
        #expect(all.contains { $0 === here })
        #expect(all.reduce(0) { $0 + $1.value } == 4_000)
        #expect(Set(all.map(ObjectIdentifier.init)).count == all.count)
    }
}

/// The paths a full shelf has seen, which decide what it keeps.
@Suite struct SeenPathsTests {
    @Test func aPathIsSeenFromItsSecondInsertUntilEmptied() {
        let seen = SeenPaths()
        let hashes = (0..<2_000).map { index in
            Array("/api/tables/t/sections/0/rows/\(index)".utf8).withUnsafeBytes { AnswerTable<Int>.hash($0) }
        }
        #expect(hashes.filter { seen.insert($0, .identity) }.count < 20)
        #expect(hashes.allSatisfy { seen.insert($0, .identity) })
        #expect(hashes.filter { seen.insert($0, .gzip) }.count < 20)
        seen.removeAll()
        #expect(hashes.filter { seen.insert($0, .identity) }.count < 20)
    }
}
