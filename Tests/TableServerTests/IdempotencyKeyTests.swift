import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import TableJournal
import TableModel
import TableRendering
import TableServerTesting
import Testing
@testable import TableServer

/// `Idempotency-Key` on edits (docs/API.md, "Idempotency-Key"): a repeat is
/// answered with the first answer and made once; the key with another request
/// is 422; a malformed key is 400; creates, deletes and PATCHes take keys too;
/// keys survive a restart from the journal (and its snapshots), and a key
/// another replica committed is found after catching up with the log.
@Suite struct IdempotencyKeyTests {
    static let insert = #"{"insertRows": [{"at": [0, 0], "row": {"text": "once"}}]}"#

    func headers(key: String) -> HTTPHeaders {
        var headers = jsonHeaders
        headers.set("Idempotency-Key", key)
        return headers
    }

    func version(_ client: TestClient, _ table: String = "t") throws -> Int? {
        try client.request(.GET, "/api/tables/\(table)").json["version"]?.int
    }

    @Test func aRepeatIsAnsweredAsTheFirstAndMadeOnce() throws {
        try withServer(.inProcess) { client in
            let first = try client.request(
                .POST, "/api/tables/t/batch", headers: headers(key: "k1"), body: body(Self.insert))
            #expect(first.status == 200)
            let again = try client.request(
                .POST, "/api/tables/t/batch", headers: headers(key: "\"k1\""), body: body(Self.insert))
            #expect(again.status == 200)
            #expect(again.body == first.body)
            #expect(again.headers["ETag"] == first.headers["ETag"])
            #expect(try version(client) == 1)
            #expect(try client.request(.GET, "/api/tables/t/changes?since=0").json["changes"]?.array?.count == 1)
            // A single-operation route and a by-id route, each made once too.
            for path in ["/api/tables/t/sections/0/rows/0/select", "/api/tables/t/sections/0/rows/0/deselect"] {
                let made = try client.request(.POST, path, headers: headers(key: path))
                let repeated = try client.request(.POST, path, headers: headers(key: path))
                #expect(made.status == 200 && repeated.body == made.body, "\(path)")
            }
            #expect(try version(client) == 3)
        }
    }

    @Test func theKeyWithAnotherRequestIs422AndChangesNothing() throws {
        try withServer(.inProcess) { client in
            let path = "/api/tables/t/batch"
            #expect(try client.request(.POST, path, headers: headers(key: "k"), body: body(Self.insert)).status == 200)
            let other = #"{"insertRows": [{"at": [0, 0], "row": {"text": "other"}}]}"#
            let reused = try client.request(.POST, path, headers: headers(key: "k"), body: body(other))
            #expect(reused.status == 422)
            #expect(try reused.json["type"]?.string == "idempotency-key-reused")
            // Another path with the same key is another request too.
            let elsewhere = try client.request(
                .POST, "/api/tables/t/sections/0/rows", headers: headers(key: "k"), body: body(#"{"row": {}}"#))
            #expect(elsewhere.status == 422)
            #expect(try version(client) == 1)
        }
    }

    @Test func malformedKeysAre400() throws {
        try withServer(.inProcess) { client in
            for key in ["", String(repeating: "k", count: 256), "caf\u{e9}", "a b"] {
                let response = try client.request(
                    .POST, "/api/tables/t/batch", headers: headers(key: key), body: body(Self.insert))
                #expect(response.status == 400, "\(key)")
                #expect(try response.json["type"]?.string == "idempotency-key-malformed")
            }
            let delete = try client.request(.DELETE, "/api/tables/t", headers: headers(key: "a b"))
            #expect(delete.status == 400)
            #expect(try delete.json["type"]?.string == "idempotency-key-malformed")
            #expect(try version(client) == 0)
        }
    }

    @Test func aRefusedEditIsNotRememberedAndKeysArePerTable() throws {
        let other = fixtureTable(id: "u")
        try withServer(.inProcess, tables: [fixtureTable(), other]) { client in
            let path = "/api/tables/t/sections/0/rows/0"
            var stale = headers(key: "r")
            stale.set("If-Match", "\"9\"")
            let refused = try client.request(.DELETE, path, headers: stale)
            #expect(refused.status == 412)
            // Judged again: made now.
            #expect(try client.request(.DELETE, path, headers: headers(key: "r")).status == 200)
            #expect(try version(client) == 1)
            let onU = try client.request(.DELETE, "/api/tables/u/sections/0/rows/0", headers: headers(key: "r"))
            #expect(onU.status == 200)
            #expect(try version(client, "u") == 1)
        }
    }

    @Test func aSnapshotPutIsMadeOnce() throws {
        try withServer(.inProcess) { client in
            let snapshot = #"{"sections": [{"id": "b", "rows": [{"id": "b1"}]}, {"id": "z"}]}"#
            let first = try client.request(.PUT, "/api/tables/t", headers: headers(key: "s"), body: body(snapshot))
            #expect(first.status == 200)
            _ = try client.request(.POST, "/api/tables/t/batch", headers: jsonHeaders, body: body(Self.insert))
            let again = try client.request(.PUT, "/api/tables/t", headers: headers(key: "s"), body: body(snapshot))
            #expect(again.status == 200 && again.body == first.body)
            #expect(try client.request(.GET, "/api/tables/t").json["sections"]?[0]?["rows"]?.array?.count == 2)
        }
    }

    static let create = #"{"id": "n", "sections": [{"id": "s", "rows": [{"id": "r", "text": "new"}]}]}"#

    func tableCount(_ client: TestClient) throws -> Int? {
        try client.request(.GET, "/api/tables").json["tables"]?.array?.count
    }

    @Test func aCreateIsMadeOnceAndAnsweredAgainAfterItsTableIsGone() throws {
        try withServer(.inProcess) { client in
            let first = try client.request(.POST, "/api/tables", headers: headers(key: "c"), body: body(Self.create))
            #expect(first.status == 201)
            _ = try client.request(.POST, "/api/tables/n/batch", headers: jsonHeaders, body: body(Self.insert))
            let again = try client.request(.POST, "/api/tables", headers: headers(key: "c"), body: body(Self.create))
            #expect(again.status == 201 && again.body == first.body)
            #expect(again.headers["ETag"] == first.headers["ETag"])
            #expect(again.headers["Location"] == "/api/tables/n")
            #expect(try version(client, "n") == 1)
            // Deleted since: the repeat is still the first answer, and makes no table.
            #expect(try client.request(.DELETE, "/api/tables/n").status == 204)
            let afterDelete = try client.request(
                .POST, "/api/tables", headers: headers(key: "c"), body: body(Self.create))
            #expect(afterDelete.status == 201 && afterDelete.body == first.body)
            #expect(try client.request(.GET, "/api/tables/n").status == 404)
            // The key with another body, and with a delete, is 422; nothing is made.
            let other = #"{"id": "o", "sections": []}"#
            let reused = try client.request(.POST, "/api/tables", headers: headers(key: "c"), body: body(other))
            #expect(reused.status == 422)
            #expect(try reused.json["type"]?.string == "idempotency-key-reused")
            #expect(try client.request(.DELETE, "/api/tables/t", headers: headers(key: "c")).status == 422)
            #expect(try tableCount(client) == 1)
        }
    }

    @Test func aDeleteIsMadeOnceAndDoesNotReachANewIncarnation() throws {
        try withServer(.inProcess) { client in
            let first = try client.request(.DELETE, "/api/tables/t", headers: headers(key: "d"))
            #expect(first.status == 204)
            let again = try client.request(.DELETE, "/api/tables/t", headers: headers(key: "d"))
            #expect(again.status == 204)
            // Created again under the same id: a repeat of the delete leaves it.
            let recreate = #"{"id": "t", "sections": [{"rows": [{"text": "new"}]}]}"#
            #expect(try client.request(.POST, "/api/tables", headers: jsonHeaders, body: body(recreate)).status == 201)
            #expect(try client.request(.DELETE, "/api/tables/t", headers: headers(key: "d")).status == 204)
            #expect(try version(client) == 0)
            // A refused delete is not remembered: judged again.
            var stale = headers(key: "e")
            stale.set("If-Match", "\"9\"")
            #expect(try client.request(.DELETE, "/api/tables/t", headers: stale).status == 412)
            #expect(try client.request(.DELETE, "/api/tables/t", headers: headers(key: "e")).status == 204)
            #expect(try client.request(.GET, "/api/tables/t").status == 404)
        }
    }

    @Test func aPatchIsMadeOnce() throws {
        try withServer(.inProcess) { client in
            let patch = #"{"title": "Once"}"#
            let first = try client.request(.PATCH, "/api/tables/t", headers: headers(key: "p"), body: body(patch))
            #expect(first.status == 200)
            let again = try client.request(.PATCH, "/api/tables/t", headers: headers(key: "p"), body: body(patch))
            #expect(again.status == 200 && again.body == first.body)
            #expect(again.headers["ETag"] == first.headers["ETag"])
            #expect(try client.request(.GET, "/api/tables/t/changes?since=0").json["changes"]?.array?.count == 1)
            let other = try client.request(
                .PATCH, "/api/tables/t", headers: headers(key: "p"), body: body(#"{"title": "Twice"}"#))
            #expect(other.status == 422)
            #expect(try version(client) == 1)
            // Edited since: the repeat answers the table as it is now, and makes nothing.
            _ = try client.request(.POST, "/api/tables/t/batch", headers: jsonHeaders, body: body(Self.insert))
            let later = try client.request(.PATCH, "/api/tables/t", headers: headers(key: "p"), body: body(patch))
            #expect(later.status == 200 && later.headers["ETag"] == "\"2\"")
            #expect(try later.json["title"]?.string == "Once" && later.json["version"]?.int == 2)
            #expect(try version(client) == 2)
        }
    }

    @Test func keysOfCreatesAndDeletesSurviveRestartsAndSnapshots() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idem-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = { (snapshotEvery: Int) in
            { (options: inout ServerOptions) in
                var journal = JournalOptions(directory: directory)
                journal.snapshotEveryRecords = snapshotEvery
                options.journal = journal
            }
        }
        let created: TestResponse
        do {
            let server = try makeServer(configure: journal(1_000))
            let client = TestClient(router: server.router)
            created = try client.request(.POST, "/api/tables", headers: headers(key: "c"), body: body(Self.create))
            #expect(created.status == 201)
            #expect(try client.request(.DELETE, "/api/tables/n", headers: headers(key: "d")).status == 204)
            server.shutdown()
        }
        // Restarted from the records; then a snapshot drops them (no table holds the keys).
        do {
            let server = try makeServer(tables: [], configure: journal(1))
            let client = TestClient(router: server.router)
            let again = try client.request(.POST, "/api/tables", headers: headers(key: "c"), body: body(Self.create))
            #expect(again.status == 201 && again.body == created.body)
            #expect(try client.request(.GET, "/api/tables/n").status == 404)
            #expect(try client.request(.DELETE, "/api/tables/n", headers: headers(key: "d")).status == 204)
            #expect(try tableCount(client) == 1)
            try editUntilNoSegmentHolds("\"key\":\"c\"", in: directory, through: client)
            server.shutdown()
        }
        let server = try makeServer(tables: [], configure: journal(1_000))
        defer { server.shutdown() }
        let client = TestClient(router: server.router)
        let again = try client.request(.POST, "/api/tables", headers: headers(key: "c"), body: body(Self.create))
        #expect(again.status == 201 && again.body == created.body)
        #expect(try client.request(.GET, "/api/tables/n").status == 404)
        #expect(try client.request(.DELETE, "/api/tables/n", headers: headers(key: "d")).status == 204)
        #expect(try client.request(.DELETE, "/api/tables/t", headers: headers(key: "d")).status == 422)
        #expect(try tableCount(client) == 1)
    }

    /// Edits table "t" on (each record may start a snapshot) until a snapshot
    /// was taken after the record holding `text` and no journal segment in
    /// `directory` holds it any more.
    func editUntilNoSegmentHolds(_ text: String, in directory: String, through client: TestClient) throws {
        func segmentsHold() throws -> Bool {
            try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".wtj") }.contains {
                // A snapshot may remove the segment meanwhile.
                let bytes = try? Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent($0))
                return bytes?.range(of: Data(text.utf8)) != nil
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while try segmentsHold() {
            guard ContinuousClock.now < deadline else { Issue.record("no snapshot dropped the record"); return }
            let made = try client.request(
                .POST, "/api/tables/t/sections/0/rows", headers: jsonHeaders, body: body(#"{"row": {}}"#))
            #expect(made.status == 200)
        }
    }

    @Test func keysSurviveARestartFromTheJournal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idem-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let snapshot = #"{"sections": [{"id": "b", "rows": [{"id": "b1"}]}]}"#
        var answers: [TestResponse] = []
        do {
            let server = try makeServer { $0.journal = JournalOptions(directory: directory) }
            let client = TestClient(router: server.router)
            answers.append(
                try client.request(.POST, "/api/tables/t/batch", headers: headers(key: "b"), body: body(Self.insert)))
            answers.append(try client.request(.PUT, "/api/tables/t", headers: headers(key: "s"), body: body(snapshot)))
            server.shutdown()
        }
        let server = try makeServer(tables: []) { $0.journal = JournalOptions(directory: directory) }
        defer { server.shutdown() }
        let client = TestClient(router: server.router)
        let version = try version(client)
        let batch = try client.request(
            .POST, "/api/tables/t/batch", headers: headers(key: "b"), body: body(Self.insert))
        let put = try client.request(.PUT, "/api/tables/t", headers: headers(key: "s"), body: body(snapshot))
        #expect(batch.status == 200 && batch.body == answers[0].body)
        #expect(put.status == 200 && put.body == answers[1].body)
        #expect(try self.version(client) == version)
        let reused = try client.request(.POST, "/api/tables/t/batch", headers: headers(key: "b"), body: body("{}"))
        #expect(reused.status == 422)
    }

    @Test func keysSurviveAJournalSnapshotThatDropsTheirRecords() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idem-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = { (options: inout ServerOptions) in
            var journal = JournalOptions(directory: directory)
            journal.snapshotEveryRecords = 1
            options.journal = journal
        }
        let first: TestResponse
        do {
            let server = try makeServer(configure: options)
            let client = TestClient(router: server.router)
            first = try client.request(
                .POST, "/api/tables/t/batch", headers: headers(key: "kept-by-snapshot"), body: body(Self.insert))
            try editUntilNoSegmentHolds("kept-by-snapshot", in: directory, through: client)
            server.shutdown()
        }
        let server = try makeServer(tables: [], configure: options)
        defer { server.shutdown() }
        let client = TestClient(router: server.router)
        let version = try version(client)
        let again = try client.request(
            .POST, "/api/tables/t/batch", headers: headers(key: "kept-by-snapshot"), body: body(Self.insert))
        #expect(again.status == 200 && again.body == first.body)
        #expect(try self.version(client) == version)
    }

    /// A log shared with another replica, which committed version 1 under key
    /// "k" before this server's edit reached it: it hands that change over as
    /// missed, once, and records what the edit answers then.
    final class SharedLog: TableLog, Sendable {
        let committedElsewhere: LoggedChange
        let handedOver = Atomic<Bool>(false)
        let recorded = Mutex<[LoggedEdit]>([])

        init(committedElsewhere: LoggedChange) { self.committedElsewhere = committedElsewhere }

        var recordsAtOnce: Bool { false }
        func recordCreation(of table: Table, key: ChangeKey?) throws -> UInt64 { 1 }
        func directoryKey(_ key: String) -> ChangeKey? { nil }
        func lookUp(_ id: String) -> Bool { false }

        func recordEdit(
            of id: String, mark: UInt64, version: Int,
            _ edit: (_ missed: [LoggedChange]) throws -> LoggedEdit
        ) throws -> UInt64 {
            var logged = try edit([])
            if !handedOver.exchange(true, ordering: .acquiringAndReleasing) {
                logged = try edit([committedElsewhere])
            }
            recorded.withLock { $0.append(logged) }
            return mark
        }
    }

    @Test func aKeyCommittedThroughAnotherReplicaIsFoundAfterCatchingUp() throws {
        var request = HTTPRequest(method: .POST, path: "/api/tables/t/batch", body: body(Self.insert))
        request.headers.set("Idempotency-Key", "k")
        let key = try #require(try IdempotentRequest(request))
        let batch = Batch(insertRows: [.init(at: TableIndexPath(0, 0), row: Row(id: "x", text: "once"))])
        let elsewhere = key.changeKey().appended(to: batch.changeJSONBytes(version: 1))
        let log = SharedLog(committedElsewhere: LoggedChange(version: 1, json: elsewhere))
        let renderer = try TableRenderer(templatesDirectory: packageRoot.appendingPathComponent("Templates").path)
        let store = TableStore(history: 100, renderer: renderer, log: log)
        try store.create(Table(id: "t", sections: [Section(id: "s", rows: [])]))

        let repeated = #expect(throws: IdempotentRepeat.self) {
            try store.apply("t", ifMatch: nil, key: key) { _ in batch }
        }
        #expect(repeated?.answer.version == 1)
        #expect(repeated?.answer.changes == [try store.changes("t", since: 0).changes?.first?.json ?? []])
        #expect(try store.table("t").version == 1)
        // Nothing of this server's edit was recorded.
        #expect(log.recorded.withLock { $0.allSatisfy { if case .nothing = $0 { true } else { false } } })
    }
}
