import Foundation
import Synchronization
import TableModel
import TableServer
import Testing
import WebTableViewClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers the first `failures` requests `503` with `Retry-After: 0` (after
/// passing them on, when `passingOn`: their answer is lost), then passes every
/// request on; records the `Idempotency-Key` of each.
final class FlakyTransport: HTTPTransport, EventStreamTransport {
    let base = URLSessionTransport()
    let failures: Int
    let type: String
    let keys = Mutex<[String?]>([])

    /// Whether a failed request reaches the server first (its answer is lost).
    let passingOn: Bool

    init(failures: Int, type: String = "storage-unavailable", passingOn: Bool = false) {
        self.failures = failures
        self.type = type
        self.passingOn = passingOn
    }

    func send(_ request: URLRequest) async throws -> HTTPAnswer {
        let count = keys.withLock { keys in
            keys.append(request.value(forHTTPHeaderField: "Idempotency-Key"))
            return keys.count
        }
        if count <= failures {
            if passingOn { _ = try await base.send(request) }
            let body = Array(#"{"type":"\#(type)","title":"Service Unavailable","status":503,"detail":"full"}"#.utf8)
            return HTTPAnswer(status: 503, headers: ["retry-after": "0"], body: body)
        }
        return try await base.send(request)
    }

    func stream(_ request: URLRequest) -> AsyncThrowingStream<[UInt8], any Error> { base.stream(request) }
}

@Suite struct TableClientTests {
    /// A server restarted without its journal is a new life (docs/API.md,
    /// "Caching"): a version the client read before the restart is refused,
    /// though the new life is at the same version number, as the client names
    /// it in the life it heard; read again, the same edit is made.
    @Test func anEditsIfMatchNeverMatchesAcrossLives() async throws {
        let newLife: (inout ServerOptions) -> Void = { $0.newLifeAtEachStart = true }
        var (server, url) = try startServer(configure: newLife)
        let port = url.port ?? 0
        let client = TableClient(baseURL: url)
        let before = try await client.table("t")
        server.shutdown()
        (server, _) = try startServer(port: port, configure: newLife)
        defer { server.shutdown() }
        await #expect {
            try await client.deleteRow(at: TableIndexPath(0, 0), in: "t", ifMatch: before.version)
        } throws: { ($0 as? TableClientError)?.problem?.kind == .versionMismatch }
        let after = try await client.table("t")
        #expect(after.version == before.version && after.sections[0].rows.count == 7, "nothing was deleted")
        let change = try await client.deleteRow(at: TableIndexPath(0, 0), in: "t", ifMatch: after.version)
        #expect(change.version == after.version + 1)
        // A server whose versions outlive it tags them bare: so does the client then.
        let (lasting, lastingURL) = try startServer()
        defer { lasting.shutdown() }
        let bare = TableClient(baseURL: lastingURL)
        let read = try await bare.table("t")
        #expect(try await bare.deleteRow(at: TableIndexPath(0, 0), in: "t", ifMatch: read.version).version == 1)
    }

    /// Every typed edit, by index and by id, against a live server: each answers
    /// the change the server published, and those changes replayed on the table
    /// as it was give the server's table.
    @Test func everyEditAnswersItsChangeAndTheChangesReplayToTheTable() async throws {
        let (server, url) = try startServer()
        defer { server.shutdown() }
        let client = TableClient(baseURL: url)
        var changes: [TableChange] = []
        changes.append(
            try await client.insertRows([Row(id: "n0", text: "N0")], inSection: 0, at: 1, in: "t", animation: .fade))
        changes.append(try await client.deleteRow(at: TableIndexPath(0, 0), in: "t"))
        changes.append(try await client.reloadRow(at: TableIndexPath(0, 0), with: Row(id: "n0", text: "N0!"), in: "t"))
        changes.append(try await client.moveRow(at: TableIndexPath(0, 0), to: TableIndexPath(1, 0), in: "t"))
        changes.append(
            try await client.insertSection(Section(id: "d", header: "D", rows: [Row(id: "d0")]), at: 1, in: "t"))
        changes.append(try await client.reloadSection(1, with: Section(id: "d", header: "D!", rows: []), in: "t"))
        changes.append(try await client.moveSection(1, to: 0, in: "t"))
        changes.append(try await client.deleteSection(0, in: "t", ifMatch: changes.last?.version))
        changes.append(try await client.setSelected(true, rowAt: TableIndexPath(0, 1), in: "t"))
        changes.append(try await client.setSwitch(true, rowAt: TableIndexPath(2, 0), in: "t"))
        changes.append(try await client.pressButton(rowAt: TableIndexPath(2, 1), in: "t"))
        changes.append(try await client.insertItems([Row(id: "i0", text: "I0")], .after("a2"), in: "t"))
        changes.append(try await client.insertItems([Row(id: "i1")], .end(section: "b"), in: "t"))
        changes.append(try await client.moveItem("i0", .before("a1"), in: "t", animation: .top))
        changes.append(try await client.reloadItem(Row(id: "i0", text: "I0!"), in: "t"))
        changes.append(try await client.reconfigureItem(Row(id: "i0", text: "I0!!"), in: "t"))
        changes.append(try await client.deleteItem("i1", in: "t"))
        changes.append(try await client.setSwitch(false, item: "wifi", in: "t"))
        changes.append(try await client.pressButton(item: "update", in: "t"))
        changes.append(
            try await client.insertSections([Section(id: "e", header: "E", rows: [])], .before("a"), in: "t"))
        changes.append(try await client.reloadSection(Section(id: "e", header: "E!"), in: "t"))
        changes.append(try await client.moveSection(id: "e", .after("b"), in: "t"))
        changes.append(try await client.deleteSection(id: "e", in: "t"))
        changes.append(
            try await client.apply(
                IdentifiedBatch(
                    edits: [
                        .deleteItems(["a3"]), .insertItems([Row(id: "z")], .end(section: nil)),
                        .insertSections([Section(id: "f", rows: [Row(id: "f0")])], .end),
                        .moveItem("a4", .end(section: "f")),
                        .reloadSections([Section(id: "b", header: "Bee")]),
                    ],
                    animation: .middle, expect: Batch.Expectation(sections: 4)),
                in: "t"))
        changes.append(
            try await client.performBatchUpdates(
                Batch(
                    deleteRows: [TableIndexPath(0, 0)],
                    moveRows: [Batch.RowMove(from: TableIndexPath(0, 1), to: TableIndexPath(0, 2))]),
                in: "t"))
        var snapshot = try await client.table("t")
        snapshot.title = "Snapshot"
        let reversed = Array(snapshot.sections[0].rows.reversed())
        _ = try snapshot.apply(
            Batch(reloadSections: [Batch.SectionItem(at: 0, section: Section(id: "a", header: "A", rows: reversed))]))
        let snapshotChanges = try await client.applySnapshot(snapshot)
        #expect(!snapshotChanges.isEmpty)
        changes += snapshotChanges

        #expect(changes.map(\.version) == Array(1...changes.count))
        #expect(changes[0].batch.insertRows.map(\.at) == [TableIndexPath(0, 1)] && changes[0].batch.animation == .fade)
        #expect(changes[10].batch.press == Batch.Press(at: TableIndexPath(2, 1), id: "update"))
        var replayed = fixtureTable()
        for change in changes { _ = try replayed.apply(change.batch) }
        let served = try await client.table("t")
        #expect(replayed.version == served.version)
        #expect(replayed.jsonBytes == served.jsonBytes)

        let patched = try await client.updateProperties(TableProperties(title: "Patched"), of: "t")
        #expect(patched.title == "Patched" && patched.version == served.version + 1)
    }

    @Test func readsTablesSectionsPagesAndRows() async throws {
        let (server, url) = try startServer()
        defer { server.shutdown() }
        let client = TableClient(baseURL: url)
        try await client.createTable(Table(id: "more", sections: [Section(rows: (0..<5).map { Row(text: "\($0)") })]))
        #expect(try await client.tables().map(\.id).sorted() == ["more", "t"])
        #expect(try await client.sections(of: "t").map(\.rowCount) == [7, 2, 2])
        let page = try await client.rows(of: "t", section: 0, offset: 5, limit: 10)
        #expect(page.total == 7 && page.rows.map(\.text) == ["A5", "A6"] && !page.hasMore)
        #expect(try await client.row(of: "t", at: TableIndexPath(1, 1)).id == "b1")
        let found = try await client.row(of: "t", withID: "b1")
        #expect(found?.0 == TableIndexPath(1, 1))
        _ = try await client.deleteRow(at: TableIndexPath(0, 0), in: "t")
        #expect(try await client.changes(of: "t", since: 0).map(\.batch.deleteRows) == [[TableIndexPath(0, 0)]])
        try await client.deleteTable("more")
        #expect(try await client.tables().map(\.id) == ["t"])
    }

    @Test func refusalsAreTypedProblemsWithTheServersDetail() async throws {
        let (server, url) = try startServer()
        defer { server.shutdown() }
        let client = TableClient(baseURL: url)
        await #expect {
            try await client.performBatchUpdates(Batch(deleteRows: [TableIndexPath(0, 9)]), in: "t")
        } throws: { error in
            let problem = (error as? TableClientError)?.problem
            return problem?.kind == .batch(.indexOutOfRange) && problem?.status == 409
                && problem?.detail
                    == "attempt to delete row 9 from section 0 which only contains 7 rows before the update"
        }
        await #expect {
            try await client.deleteRow(at: TableIndexPath(0, 0), in: "t", ifMatch: 5)
        } throws: { ($0 as? TableClientError)?.problem?.kind == .versionMismatch }
        await #expect {
            try await client.deleteItem("nope", in: "t")
        } throws: { ($0 as? TableClientError)?.problem?.kind == .identifiedEdit(.unknownID) }
        await #expect {
            try await client.table("nope")
        } throws: { ($0 as? TableClientError)?.problem?.kind == .notFound }
        await #expect {
            try await client.insertRows([Row(id: "bad id!")], inSection: 0, in: "t")
        } throws: { error in
            let problem = (error as? TableClientError)?.problem
            return problem?.kind == .validation && problem?.issues.first?.path == "$.rows[0].id"
        }
        #expect(try await client.table("t").version == 0)
    }

    @Test func a503IsRetriedWithTheSameIdempotencyKey() async throws {
        let (server, url) = try startServer()
        defer { server.shutdown() }
        let flaky = FlakyTransport(failures: 2)
        let client = TableClient(baseURL: url, retry: RetryPolicy(attempts: 3), transport: flaky)
        let change = try await client.deleteItem("a0", in: "t")
        #expect(change.version == 1)
        _ = try await client.deleteItem("a1", in: "t")
        let keys = flaky.keys.withLock { $0 }
        #expect(keys.count == 4)
        #expect(keys[0] != nil && keys[0] == keys[1] && keys[1] == keys[2])
        #expect(keys[3] != nil && keys[3] != keys[0])

        let impatient = TableClient(
            baseURL: url, retry: RetryPolicy(attempts: 1), transport: FlakyTransport(failures: 1))
        await #expect {
            try await impatient.deleteItem("a2", in: "t")
        } throws: { ($0 as? TableClientError)?.problem?.kind == .storageUnavailable }
        #expect(try await client.table("t").version == 2)
    }

    /// `outcome-unknown` may have been made: an edit is sent again with its
    /// key, and the server answers the first answer without making it again
    /// (a delete by index deletes one row; a table's delete answers 204, not
    /// 404); a read is sent again too.
    @Test func anEditWhoseOutcomeIsUnknownIsSentAgainWithItsKeyAndMadeOnce() async throws {
        let (server, url) = try startServer()
        defer { server.shutdown() }
        let lost = FlakyTransport(failures: 1, type: "outcome-unknown", passingOn: true)
        let client = TableClient(baseURL: url, retry: RetryPolicy(attempts: 3), transport: lost)
        let reader = TableClient(baseURL: url)
        let rows = try await reader.table("t").sections[0].rows.count
        let change = try await client.deleteRow(at: TableIndexPath(0, 0), in: "t")
        #expect(change.version == 1)
        let keys = lost.keys.withLock { $0 }
        #expect(keys.count == 2 && keys[0] != nil && keys[0] == keys[1])
        let table = try await reader.table("t")
        #expect(table.version == 1 && table.sections[0].rows.count == rows - 1)

        let reads = FlakyTransport(failures: 1, type: "outcome-unknown")
        #expect(
            try await TableClient(baseURL: url, retry: RetryPolicy(attempts: 3), transport: reads).table("t").version
                == 1)
        #expect(reads.keys.withLock { $0.count } == 2)

        let deleted = FlakyTransport(failures: 1, type: "outcome-unknown", passingOn: true)
        try await TableClient(baseURL: url, retry: RetryPolicy(attempts: 3), transport: deleted).deleteTable("t")
        let deleteKeys = deleted.keys.withLock { $0 }
        #expect(deleteKeys.count == 2 && deleteKeys[0] != nil && deleteKeys[0] == deleteKeys[1])
        await #expect {
            try await reader.table("t")
        } throws: { ($0 as? TableClientError)?.problem?.kind == .notFound }
    }
}
