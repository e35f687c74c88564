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

/// A table's own `access` (docs/ACCESS.md, "Access per table"): its rules
/// count with the policy's, only its admins set or see it, and it lasts as
/// the table does.
@Suite(.timeLimit(.minutes(1))) struct TableAccessTests {
    /// `team-x`, closed to anonymous requests, read by `guest`, administered by `boss`.
    static let access = #"{"anonymous":"none","rules":[{"sub":"guest","right":"read"},{"sub":"boss","right":"admin"}]}"#
    static let document =
        #"{"id":"team-x","title":"X","access":\#(access),"sections":[{"id":"s","rows":[{"id":"r","text":"R"}]}]}"#

    func bearer(_ token: String) -> HTTPHeaders {
        ["Authorization": "Bearer \(token)", "Content-Type": "application/json", "Host": "127.0.0.1"]
    }

    /// Tokens of the tests' requesters, verified by the server's verifier already.
    struct Requesters {
        let guest, boss, editor, reader, ops, admin: HTTPHeaders
    }

    func requesters(_ keys: AccessKeys, _ verifier: TokenVerifier) async throws -> Requesters {
        let ops = try await keys.token(sub: "ops-bot", team: "ops")
        _ = try await verifier.verify(ops).get()
        return Requesters(
            guest: bearer(try await keys.verifiedToken(by: verifier, sub: "guest")),
            boss: bearer(try await keys.verifiedToken(by: verifier, sub: "boss")),
            editor: bearer(try await keys.verifiedToken(by: verifier, sub: "ed", roles: ["editor"])),
            reader: bearer(try await keys.verifiedToken(by: verifier, sub: "reader")),
            ops: bearer(ops), admin: bearer(AccessMatrixTests.editToken))
    }

    func server(_ verifier: TokenVerifier, journal: String? = nil, tables: [Table] = [fixtureTable()]) throws
        -> WebTableViewServer
    {
        try makeServer(tables: tables) { options in
            options.accessPolicy = try! AccessPolicy(json: testPolicy)
            options.tokenVerifier = verifier
            options.token = AccessMatrixTests.editToken
            if let journal { options.journal = JournalOptions(directory: journal) }
        }
    }

    /// Runs `test` on a server under the tests' policy holding `team-x`, made by the edit token.
    func withTeamX(_ test: (TestClient, Requesters) throws -> Void) async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try server(verifier)
        let client = TestClient(router: server.router)
        let who = try await requesters(keys, verifier)
        #expect(try client.request(.POST, "/api/tables", headers: who.admin, body: body(Self.document)).status == 201)
        try withExtendedLifetime(server) { try test(client, who) }
    }

    @Test func aTablesOwnRulesGrantRightsTheFileDoesNot() async throws {
        try await withTeamX { client, who in
            // guest, whom the file names nowhere, reads team-x and lists it; may not edit it.
            #expect(try client.request(.GET, "/api/tables/team-x", headers: who.guest).status == 200)
            let listed = try client.request(.GET, "/api/tables", headers: who.guest).json
            #expect(listed["tables"]?.array?.compactMap { $0["id"]?.string } == ["team-x"])
            let edit = try client.request(.POST, "/api/tables/team-x/sections/0/rows/0/select", headers: who.guest)
            #expect(edit.status == 403)
            // boss administers it: may delete it; guest still may not read t.
            #expect(try client.request(.GET, "/api/tables/t", headers: who.guest).status == 403)
            #expect(try client.request(.GET, "/api/tables/team-x").status == 401)
            #expect(try client.request(.DELETE, "/api/tables/team-x", headers: who.boss).status == 204)
        }
    }

    @Test func aTablesAnonymousTakesThePlaceOfTheFiles() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try server(verifier)
        let client = TestClient(router: server.router)
        let admin = bearer(AccessMatrixTests.editToken)
        let open = #"{"id":"team-open","access":{"anonymous":"read"}}"#
        #expect(try client.request(.POST, "/api/tables", headers: admin, body: body(open)).status == 201)
        let read = try client.request(.GET, "/api/tables/team-open")
        #expect(read.status == 200)
        #expect(!read.text.contains("access"))
        #expect(try client.request(.POST, "/api/tables/team-open/sections", body: body("{}")).status == 401)
        #expect(try client.request(.GET, "/api/tables/t").status == 401)
    }

    @Test func onlyAdminsSeeAccessAndEditorsCannotChangeIt() async throws {
        try await withTeamX { client, who in
            func access(_ headers: HTTPHeaders) throws -> JSONValue? {
                try client.request(.GET, "/api/tables/team-x", headers: headers).json["access"]
            }
            let expected = try JSONParser().parse(Array(Self.access.utf8))
            for admin in [who.boss, who.ops, who.admin] { #expect(try access(admin) == expected) }
            #expect(try access(who.guest) == nil)
            #expect(try access(who.editor) == nil)
            let shown = try client.request(.GET, "/api/tables/team-x", headers: who.boss)
            #expect(shown.headers["Cache-Control"] == "no-store")
            // The editor's snapshot naming access is refused for want of admin; PATCH and batches cannot name it.
            let opened = #"{"id":"team-x","access":{"anonymous":"read"}}"#
            let put = try client.request(.PUT, "/api/tables/team-x", headers: who.editor, body: body(opened))
            #expect(put.status == 403)
            #expect(try put.json["type"]?.string == "missing-right")
            #expect(try put.json["detail"]?.string?.contains("admin") == true)
            let patch = try client.request(
                .PATCH, "/api/tables/team-x", headers: who.editor, body: body(#"{"access":{"anonymous":"read"}}"#))
            #expect((400..<500).contains(patch.status))
            let batch = try client.request(
                .POST, "/api/tables/team-x/batch", headers: who.editor,
                body: body(#"{"properties":{"access":{"anonymous":"read"}}}"#))
            #expect((400..<500).contains(batch.status))
            // The editor's own writes keep it, and their answers do not show it.
            let renamed = try client.request(
                .PATCH, "/api/tables/team-x", headers: who.editor, body: body(#"{"title":"Renamed"}"#))
            #expect(renamed.status == 200)
            #expect(try renamed.json["access"] == nil)
            #expect(try access(who.boss) == expected)
            #expect(try client.request(.GET, "/api/tables/team-x", headers: who.guest).status == 200)
        }
    }

    @Test func anAdminsSnapshotChangesAccessKeepsItOrIsRefusedAndNoFeedShowsIt() async throws {
        try await withTeamX { client, who in
            // Left out: kept.
            let rows = #"{"id":"team-x","sections":[{"id":"s","rows":[{"id":"r","text":"R2"}]}]}"#
            #expect(try client.request(.PUT, "/api/tables/team-x", headers: who.boss, body: body(rows)).status == 200)
            #expect(try client.request(.GET, "/api/tables/team-x", headers: who.guest).status == 200)
            // Rules the parser refuses: 422 at $.access, nothing changed.
            let bad = #"{"id":"team-x","access":{"rules":[{"tables":["*"],"sub":"guest","right":"read"}]}}"#
            let refused = try client.request(.PUT, "/api/tables/team-x", headers: who.boss, body: body(bad))
            #expect(refused.status == 422)
            #expect(refused.text.contains("$.access"))
            #expect(refused.text.contains("has no \\\"tables\\\""))
            let wrongRight = #"{"id":"team-x","access":{"rules":[{"sub":"x","right":"owner"}]}}"#
            #expect(try client.request(.POST, "/api/tables", headers: who.admin, body: body(wrongRight)).status == 422)
            // Named: changed. guest no longer reads; the feed tells readers a change happened, never what.
            let closed =
                #"{"id":"team-x","access":{"rules":[{"sub":"boss","right":"admin"}]},"sections":[{"id":"s","rows":[{"id":"r","text":"R2"}]}]}"#
            #expect(try client.request(.PUT, "/api/tables/team-x", headers: who.boss, body: body(closed)).status == 200)
            #expect(try client.request(.GET, "/api/tables/team-x", headers: who.guest).status == 403)
            let editorFeed = try client.request(.GET, "/api/tables/team-x/changes?since=0", headers: who.editor)
            #expect(editorFeed.status == 200)
            #expect(!editorFeed.text.contains("\"access\""))
            #expect(!editorFeed.text.contains("guest"))
            let adminFeed = try client.request(.GET, "/api/tables/team-x/changes?since=0", headers: who.boss)
            #expect(!adminFeed.text.contains("\"access\""))
            // null removes it: the file alone decides again (the editor role covers team-*).
            let removed = #"{"id":"team-x","access":null,"sections":[{"id":"s","rows":[{"id":"r","text":"R2"}]}]}"#
            #expect(
                try client.request(.PUT, "/api/tables/team-x", headers: who.admin, body: body(removed)).status == 200)
            #expect(try client.request(.GET, "/api/tables/team-x", headers: who.boss).status == 403)
            #expect(try client.request(.GET, "/api/tables/team-x", headers: who.editor).status == 200)
        }
    }

    @Test func aReadKeptForATablesOwnReaderGoesToNoneTheTableCloses() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let secret = try ModelDecoder.table(
            from: JSONParser().parse(
                Array(
                    #"""
                    {"id":"secret","access":{"anonymous":"none","rules":[{"sub":"boss","right":"read"}]},
                     "sections":[{"rows":[{"text":"S"}]}]}
                    """#.utf8)))
        let server = try makeServer(
            policy: #"{"anonymous": "read"}"#, tables: [fixtureTable(), secret], verifier: verifier)
        let port = try server.start()
        defer { server.shutdown() }
        let client = TestClient(port: port)
        let boss = bearer(try await keys.verifiedToken(by: verifier, sub: "boss"))
        let someone = bearer(try await keys.verifiedToken(by: verifier, sub: "someone"))
        for path in ["/api/tables/secret", "/api/tables/secret/sections/0/rows"] {
            for _ in 0..<3 { #expect(try client.request(.GET, path, headers: boss).status == 200, "\(path)") }
            // The file opens every table to anyone; this one's own rules close it.
            #expect(try client.request(.GET, path).status == 401, "\(path)")
            #expect(try client.request(.GET, path, headers: someone).status == 403, "\(path)")
        }
    }

    @Test func accessLastsThroughTheJournal() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let who = try await requesters(keys, verifier)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("table-access-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let first = try server(verifier, journal: directory)
            defer { first.shutdown() }
            let client = TestClient(router: first.router)
            #expect(
                try client.request(.POST, "/api/tables", headers: who.admin, body: body(Self.document)).status == 201)
            let twin = Self.document.replacingOccurrences(of: "team-x", with: "team-y")
            #expect(try client.request(.POST, "/api/tables", headers: who.admin, body: body(twin)).status == 201)
            // team-y's access changes by a snapshot: a recorded change, not a creation.
            let closed = #"{"id":"team-y","access":{"rules":[{"sub":"boss","right":"admin"}]}}"#
            #expect(try client.request(.PUT, "/api/tables/team-y", headers: who.boss, body: body(closed)).status == 200)
        }
        let restarted = try server(verifier, journal: directory, tables: [])
        defer { restarted.shutdown() }
        let client = TestClient(router: restarted.router)
        #expect(try client.request(.GET, "/api/tables/team-x", headers: who.guest).status == 200)
        #expect(try client.request(.GET, "/api/tables/team-y", headers: who.guest).status == 403)
        let shown = try client.request(.GET, "/api/tables/team-y", headers: who.boss).json["access"]
        #expect(shown == (try JSONParser().parse(Array(#"{"rules":[{"sub":"boss","right":"admin"}]}"#.utf8))))
    }
}
