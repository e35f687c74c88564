import Foundation
import MicroHTTP
import MicroHTTPTesting
import TableJournal
import TableModel
import TableServerTesting
import Testing
@testable import TableServer

/// The answers kept for `Idempotency-Key`s are bounded in bytes per table
/// (docs/API.md, "Idempotency-Key"): past `IdempotencyKeys.answerBudget` the
/// oldest answers go first, their keys stay with the version they made, and a
/// journal snapshot of a table emptied again stays small.
extension IdempotencyKeyTests {
    /// The bytes a journal snapshot keeps for `keys`: each key and its changes.
    func keptBytes(_ keys: IdempotencyKeys) -> Int {
        keys.snapshotKeys().reduce(0) { total, entry in
            total + entry.key.key.utf8.count + entry.key.digest.utf8.count + entry.changes.reduce(0) { $0 + $1.count }
        }
    }

    @Test func keptAnswersStayWithinTheByteBudgetOldestDroppedFirst() throws {
        var keys = IdempotencyKeys()
        let answer = [UInt8](repeating: UInt8(ascii: "x"), count: 900_000)
        for cycle in 1...100 {
            keys.remember(
                "k\(cycle)",
                IdempotencyKeys.Answer(digest: "d\(cycle)", madeAt: 1_000, version: cycle, changes: [answer]),
                now: 1_000)
        }
        #expect(keys.answerBytes <= IdempotencyKeys.answerBudget)
        #expect(keptBytes(keys) <= IdempotencyKeys.answerBudget + 100 * 300)
        // Every key is still known: the newest with its answer, the oldest with its version only.
        for (key, version, kept) in [("k100", 100, true), ("k1", 1, false)] {
            let repeated = #expect(throws: IdempotentRepeat.self) {
                try keys.check(IdempotentRequest(key: key, digest: "d\(version)", madeAt: 1_001))
            }
            #expect(repeated?.answer.version == version)
            #expect(repeated?.answer.isKept == kept, "\(key)")
        }
        // The oldest remembered again (replayed, say) stays dropped, and the newest kept.
        keys.remember(
            "k1", IdempotencyKeys.Answer(digest: "d1", madeAt: 1_000, version: 1, changes: [answer]), now: 1_000)
        #expect(keys.answerBytes <= IdempotencyKeys.answerBudget)
        for (key, kept) in [("k1", false), ("k100", true)] {
            let repeated = #expect(throws: IdempotentRepeat.self) {
                try keys.check(IdempotentRequest(key: key, digest: "d\(key.dropFirst())", madeAt: 1_001))
            }
            #expect(repeated?.answer.isKept == kept, "\(key) again")
        }
        #expect(throws: TableServerError.self) {
            try keys.check(IdempotentRequest(key: "k1", digest: "other", madeAt: 1_001))
        }
    }

    /// Fifteen rows of 60 kB each.
    static let largeRows = (0..<15).map {
        #"{"at": [0, \#($0)], "row": {"text": ""# + String(repeating: "r", count: 60_000) + #""}}"#
    }

    @Test func largeKeyedCyclesKeepTheJournalSnapshotOfTheEmptiedTableSmall() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idem-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let empty = Table(id: "big", sections: [Section(id: "s", rows: [])])
        let server = try makeServer(tables: [fixtureTable(), empty]) { options in
            var journal = JournalOptions(directory: directory)
            journal.snapshotEveryRecords = 1
            options.journal = journal
        }
        defer { server.shutdown() }
        let client = TestClient(router: server.router)
        let insert = body(#"{"insertRows": ["# + Self.largeRows.joined(separator: ",") + "]}")
        let delete = body(#"{"deleteRows": ["# + (0..<15).map { "[0, \($0)]" }.joined(separator: ",") + "]}")
        var firstAnswer: TestResponse?
        var lastAnswer: TestResponse?
        for cycle in 0..<12 {
            let inserted = try client.request(
                .POST, "/api/tables/big/batch", headers: headers(key: "insert-\(cycle)"), body: insert)
            #expect(inserted.status == 200)
            if cycle == 0 { firstAnswer = inserted }
            let deleted = try client.request(
                .POST, "/api/tables/big/batch", headers: headers(key: "delete-\(cycle)"), body: delete)
            #expect(deleted.status == 200)
            lastAnswer = deleted
        }
        // The newest answer is kept whole; the oldest key answers the version it made, and nothing is made again.
        let lastDelete = try client.request(
            .POST, "/api/tables/big/batch", headers: headers(key: "delete-11"), body: delete)
        #expect(lastDelete.status == 200 && lastDelete.body == lastAnswer?.body)
        #expect(lastDelete.headers["ETag"] == lastAnswer?.headers["ETag"])
        let firstInsert = try client.request(
            .POST, "/api/tables/big/batch", headers: headers(key: "insert-0"), body: insert)
        #expect(firstInsert.status == 200 && firstInsert.headers["ETag"] == firstAnswer?.headers["ETag"])
        #expect(String(decoding: firstInsert.body, as: UTF8.self) == "{\"version\":1}\n")
        #expect(try version(client, "big") == 24)

        try editUntilNoSegmentHolds("\"key\":\"delete-11\"", in: directory, through: client)
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".wts") }
        let newest = try #require(snapshots.max())
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: "\(directory)/\(newest)")[.size] as? Int)
        // Twelve cycles made 11 MB of answers; the snapshot keeps at most the budget's 1 MiB of them.
        #expect(size < 2 * 1_048_576, "snapshot of \(size) bytes")
    }

    /// A repeat whose answer was dropped, while the change history still
    /// holds the edit's change, answers the first answer from it: the same bytes.
    @Test func aDroppedAnswerIsTakenAgainFromTheChangeHistory() throws {
        let empty = Table(id: "big", sections: [Section(id: "s", rows: [])])
        try withServer(.inProcess, tables: [empty], configure: { $0.historyBytes = 64 << 20 }) { client in
            let insert = body(#"{"insertRows": ["# + Self.largeRows.joined(separator: ",") + "]}")
            let delete = body(#"{"deleteRows": ["# + (0..<15).map { "[0, \($0)]" }.joined(separator: ",") + "]}")
            var inserted: [TestResponse] = []
            for cycle in 0..<3 {
                inserted.append(
                    try client.request(
                        .POST, "/api/tables/big/batch", headers: headers(key: "insert-\(cycle)"), body: insert))
                #expect(
                    try client.request(
                        .POST, "/api/tables/big/batch", headers: headers(key: "delete-\(cycle)"), body: delete
                    ).status == 200)
            }
            let again = try client.request(
                .POST, "/api/tables/big/batch", headers: headers(key: "insert-0"), body: insert)
            #expect(again.status == 200 && again.body == inserted[0].body)
            #expect(again.headers["ETag"] == inserted[0].headers["ETag"])
            #expect(try version(client, "big") == 6)
        }
    }
}
