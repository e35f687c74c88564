import AccessTokens
import Foundation
import JSON
import MicroHTTP
import MicroHTTPTesting
import TableAccess
import TableJournal
import TableModel
import TableServer
import TableServerTesting
import Testing

/// Audit (docs/ACCESS.md, "Audit"): each change records who made it, the
/// journal keeps that, and the change feed shows it to the table's admins
/// only.
@Suite(.timeLimit(.minutes(1))) struct AuditTests {
    func bearer(_ token: String) -> HTTPHeaders {
        ["Authorization": "Bearer \(token)", "Content-Type": "application/json", "Host": "127.0.0.1"]
    }

    /// The `actor` member of each change of `t`'s feed, as `headers` read it ("-" for none).
    func actors(_ client: TestClient, _ headers: HTTPHeaders = HTTPHeaders()) throws -> [String] {
        let feed = try client.request(.GET, "/api/tables/t/changes?since=0", headers: headers)
        #expect(feed.status == 200, "\(feed.text)")
        return try (feed.json["changes"]?.array ?? []).map { $0["actor"]?.string ?? "-" }
    }

    @Test func theEditTokensChangesNameItOnlyForTheEditTokenAndSurviveARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let token = bearer(AccessMatrixTests.editToken)
        func server(_ tables: [Table]) throws -> WebTableViewServer {
            try makeServer(tables: tables) { options in
                options.journal = JournalOptions(directory: directory)
                options.token = AccessMatrixTests.editToken
            }
        }
        do {
            let first = try server([fixtureTable()])
            defer { first.shutdown() }
            let client = TestClient(router: first.router)
            #expect(try client.request(.POST, "/api/tables/t/sections/0/rows/1/select", headers: token).status == 200)
            let snapshot = #"{"sections": [{"id": "a", "rows": [{"id": "a0", "text": "Only"}]}]}"#
            #expect(try client.request(.PUT, "/api/tables/t", headers: token, body: body(snapshot)).status == 200)
            let audited = try actors(client, token)
            #expect(audited.count >= 2)
            #expect(audited.allSatisfy { $0 == "edit-token" })
            // Nobody else learns who edited, and the admin's feed is kept by no cache.
            #expect(try actors(client) == audited.map { _ in "-" })
            let answer = try client.request(.GET, "/api/tables/t/changes?since=0", headers: token)
            #expect(answer.headers["Cache-Control"] == "no-store")
        }
        let restarted = try server([])
        defer { restarted.shutdown() }
        let client = TestClient(router: restarted.router)
        let replayed = try actors(client, token)
        #expect(!replayed.isEmpty && replayed.allSatisfy { $0 == "edit-token" })
        #expect(try actors(client).allSatisfy { $0 == "-" })
    }

    @Test func aChangeWithoutARequesterKnownByNameHasNoActor() throws {
        let server = try makeServer()
        let client = TestClient(router: server.router)
        #expect(try client.request(.POST, "/api/tables/t/sections/0/rows/1/select").status == 200)
        #expect(try actors(client) == ["-"])
        server.shutdown()
    }

    @Test func aShareLinksChangesNameTheLinkToAdminsOnly() async throws {
        try await ShareFixture.run(.inProcess) { share in
            let cookie = ShareFixture.cookie(try share.key("edit"))
            #expect(
                try share.client.request(.POST, "/api/tables/t/sections/0/rows/0/select", headers: cookie).status == 200
            )
            #expect(try actors(share.client, ShareFixture.admin) == ["share-link"])
            #expect(try actors(share.client, cookie) == ["-"])
        }
    }

    @Test func underAPolicyTheFeedNamesEachEditorToAdminsOnly() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try makeServer(policy: testPolicy, verifier: verifier)
        let client = TestClient(router: server.router)
        let editor = bearer(try await keys.verifiedToken(by: verifier, sub: "ed", roles: ["editor"]))
        let reader = bearer(try await keys.verifiedToken(by: verifier, sub: "reader"))
        let opsToken = try await keys.token(sub: "ops-bot", team: "ops")
        _ = try await verifier.verify(opsToken).get()
        let ops = bearer(opsToken)
        #expect(try client.request(.POST, "/api/tables/t/sections/0/rows/0/select", headers: editor).status == 200)
        #expect(try client.request(.POST, "/api/tables/t/sections/0/rows/1/select", headers: ops).status == 200)
        #expect(
            try client.request(
                .POST, "/api/tables/t/sections/0/rows/2/select", headers: bearer(AccessMatrixTests.editToken)
            )
            .status == 200)
        #expect(try actors(client, ops) == ["ed", "ops-bot", "edit-token"])
        #expect(try actors(client, bearer(AccessMatrixTests.editToken)) == ["ed", "ops-bot", "edit-token"])
        #expect(try actors(client, editor) == ["-", "-", "-"])
        #expect(try actors(client, reader) == ["-", "-", "-"])
        // Not a trace of who edited reaches a reader.
        let changes = try client.request(.GET, "/api/tables/t/changes?since=0", headers: reader)
        #expect(!changes.text.contains("\"actor\""))
    }
}
