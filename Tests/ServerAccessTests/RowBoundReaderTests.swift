import AccessTokens
import JSON
import MicroHTTP
import MicroHTTPTesting
import TableAccess
import TableModel
import TableServer
import TableServerTesting
import Testing

/// Rows per reader (docs/ACCESS.md, "Rows per reader"): a requester whose
/// reads of a table are bound to a view reads, exports and follows that view,
/// and edits only its rows, by id.
@Suite(.timeLimit(.minutes(1))) struct RowBoundReaderTests {
    /// Members read their own tasks; owners edit their own; editors edit all.
    static let policy = """
        {
          "anonymous": "none",
          "rules": [
            {"tables": ["tasks"], "role": "member", "rows": "filter[fields.owner]={sub}", "right": "read"},
            {"tables": ["tasks"], "role": "owner", "rows": "filter[fields.owner]={sub}", "right": "edit"},
            {"tables": ["tasks"], "role": "editor", "right": "edit"}
          ]
        }
        """

    /// Tasks of ana and bob in two sections.
    static func tasks() -> Table {
        func task(_ id: String, _ owner: String) -> Row {
            Row(id: id, text: "Task \(id)", fields: JSONObject([JSONMember("owner", .string(owner))]))
        }
        return Table(
            id: "tasks", title: "Tasks",
            sections: [
                Section(id: "open", header: "Open", rows: [task("t1", "ana"), task("t2", "bob"), task("t3", "ana")]),
                Section(
                    id: "done", header: "Done",
                    rows: [
                        task("t4", "bob"),
                        Row(
                            id: "t5", text: "Task t5",
                            fields: JSONObject([
                                JSONMember("owner", .string("bob")), JSONMember("secret", .string("bob's")),
                            ])),
                    ]),
            ])
    }

    let view = "filter[fields.owner]=ana"

    /// Signs tokens for the server of `withTasks`, verified there already.
    struct Tokens {
        let keys: AccessKeys
        let verifier: TokenVerifier

        func token(sub: String? = nil, roles: [String]) async throws -> String {
            try await keys.verifiedToken(by: verifier, sub: sub, roles: roles)
        }
    }

    func withTasks(_ transport: TestTransport, _ body: (TestClient, Tokens) async throws -> Void) async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let tokens = Tokens(keys: keys, verifier: verifier)
        let server = try makeServer(policy: Self.policy, tables: [Self.tasks()], verifier: verifier)
        switch transport {
        case .inProcess:
            try await body(TestClient(router: server.router), tokens)
        case .live:
            let port = try server.start()
            defer { server.shutdown() }
            try await body(TestClient(port: port), tokens)
        }
    }

    func bearer(_ token: String) -> HTTPHeaders {
        ["Authorization": "Bearer \(token)", "Content-Type": "application/json", "Host": "127.0.0.1"]
    }

    var admin: HTTPHeaders { bearer(AccessMatrixTests.editToken) }

    /// A page without what names its requester: who is signed in, and whether it is read-only.
    static func withoutRequester(_ page: String) -> String {
        var page = page.replacingOccurrences(of: #" data-read-only="true""#, with: "")
        if let start = page.range(of: #"<form class="nav-session""#),
            let end = page.range(of: "</form>", range: start.upperBound..<page.endIndex)
        {
            page.removeSubrange(start.lowerBound..<end.upperBound)
        }
        return page
    }

    @Test func everyReadOfABoundReaderIsTheViewItIsBoundTo() async throws {
        try await withTasks(.inProcess) { client, keys in
            let ana = bearer(try await keys.token(sub: "ana", roles: ["member"]))
            // Each read answers as the same read of the view does for the admin.
            for path in [
                "/api/tables/tasks", "/api/tables/tasks/sections", "/api/tables/tasks/sections/0/rows",
                "/api/tables/tasks/sections/0/rows/1", "/api/tables/tasks/items/t3", "/api/tables/tasks?format=csv",
                "/tables/tasks", "/tables/tasks/rows/t1", "/tables/tasks/sections/0/rows",
            ] {
                let separator = path.contains("?") ? "&" : "?"
                let bound = try client.request(.GET, path, headers: ana)
                let viewed = try client.request(.GET, path + separator + view, headers: admin)
                #expect(bound.status == 200, "\(path)")
                // A page names who asked, and offers a reader no editing (docs/ACCESS.md, "Share links").
                #expect(Self.withoutRequester(bound.text) == Self.withoutRequester(viewed.text), "\(path)")
                #expect(bound.headers["ETag"] == viewed.headers["ETag"], "\(path)")
            }
            let page = try client.request(.GET, "/tables/tasks", headers: ana).text
            #expect(page.contains(#"<span class="nav-signed-in" title="Signed in">ana</span>"#))
            #expect(page.contains(#" data-read-only="true">"#))
            let table = try client.request(.GET, "/api/tables/tasks", headers: ana).json
            #expect(table["sections"]?[0]?["rows"]?.array?.count == 2)
            #expect(table["sections"]?.array?.count == 1)
            // A view the reader asks for is of its rows.
            let searched = try client.request(.GET, "/api/tables/tasks?q=t3", headers: ana).json
            #expect(searched["sections"]?[0]?["rows"]?[0]?["id"]?.string == "t3")
            let others = try client.request(.GET, "/api/tables/tasks?filter[fields.owner]=bob", headers: ana).json
            #expect(others["sections"]?.array?.isEmpty == true)
            // A field no row of the reader's has is missing, and other rows' fields go unnamed.
            let unknown = try client.request(.GET, "/api/tables/tasks?sort=fields.secret", headers: ana)
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("its rows have fields.owner\""))
            // The list counts the rows the reader reads.
            let list = try client.request(.GET, "/api/tables", headers: ana).json
            #expect(list["tables"]?[0]?["rowCount"]?.int == 2)
        }
    }

    /// A read of a view of a large table (10,000 rows, `RouteWeight`) runs on
    /// the heavy-work queue, another thread: the requester's bound rows go with it.
    @Test func aHeavyReadIsOfTheBoundRowsToo() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let rows = (0..<10_000).map { index in
            Row(
                id: "r\(index)", text: "Row \(index)",
                fields: JSONObject([JSONMember("owner", .string(index % 4 == 0 ? "ana" : "bob"))]))
        }
        let big = Table(id: "tasks", title: "Tasks", sections: [Section(id: "all", rows: rows)])
        let server = try makeServer(policy: Self.policy, tables: [big], verifier: verifier)
        let ana = "Bearer \(try await keys.token(sub: "ana", roles: ["member"]))"
        let response = await answer(
            server.router, .GET, "/api/tables/tasks/sections/0/rows", query: ["limit": "1000"],
            headers: ["Authorization": ana])
        let page = try JSONParser().parse(bytes(of: response))
        #expect(page["total"]?.int == 2_500)
        let owners = Set(page["rows"]?.array?.compactMap { $0["fields"]?["owner"]?.string } ?? [])
        #expect(page["rows"]?.array?.count == 1_000)
        #expect(owners == ["ana"])
    }

    /// A read that waits for a version (`Min-Version`) is answered on the
    /// thread of the edit that reaches it: the requester's bound rows go with it.
    @Test func aReadThatWaitsForAVersionIsOfTheBoundRowsToo() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try makeServer(policy: Self.policy, tables: [Self.tasks()], verifier: verifier)
        let ana = try await keys.verifiedToken(by: verifier, sub: "ana", roles: ["member"])
        let read = HTTPRequest(
            method: .GET, path: "/api/tables/tasks/sections/0/rows",
            headers: ["Authorization": "Bearer \(ana)", "Min-Version": "1"])
        // Version 1 is not held yet: the answer is deferred until the edit below.
        let deferral = try #require(server.router.respond(to: read).deferral)
        let edit = await answer(
            server.router, .PUT, "/api/tables/tasks/items/t2",
            headers: ["Authorization": "Bearer \(AccessMatrixTests.editToken)", "Content-Type": "application/json"],
            body: body(#"{"text": "Bob's, renamed"}"#))
        #expect(edit.status == 200)
        let waited = await withCheckedContinuation { continuation in
            deferral.onCompletion { continuation.resume(returning: $0) }
        }
        let page = try JSONParser().parse(bytes(of: waited))
        #expect(page["rows"]?.array?.compactMap { $0["id"]?.string } == ["t1", "t3"])
    }

    @Test func aRowOutsideTheViewIsNotFoundAsIfItDidNotExist() async throws {
        try await withTasks(.inProcess) { client, keys in
            let ana = bearer(try await keys.token(sub: "ana", roles: ["member"]))
            for path in ["/api/tables/tasks/items/t2", "/api/tables/tasks/items/t2?q=task", "/tables/tasks/rows/t2"] {
                let hidden = try client.request(.GET, path, headers: ana)
                let missing = try client.request(.GET, path.replacingOccurrences(of: "t2", with: "t9"), headers: ana)
                #expect(hidden.status == 404, "\(path)")
                #expect(hidden.text == missing.text.replacingOccurrences(of: "t9", with: "t2"), "\(path)")
            }
            // The table's feed, in the table's index paths, is not the reader's.
            let feed = try client.request(.GET, "/api/tables/tasks/changes?since=0", headers: ana)
            #expect(feed.status == 403)
            #expect(try feed.json["type"]?.string == "bound-to-view")
        }
    }

    @Test func aBoundEditorEditsItsRowsByIdAndNoOthers() async throws {
        try await withTasks(.inProcess) { client, keys in
            let ana = bearer(try await keys.token(sub: "ana", roles: ["owner"]))
            let rename = body(#"{"text": "Mine"}"#)
            let edited = try client.request(.PUT, "/api/tables/tasks/items/t1", headers: ana, body: rename)
            #expect(edited.status == 200)
            // Its batch, in the table's index paths, would place the row among rows ana cannot see.
            #expect(edited.text == "{\"version\":1}\n")
            let hidden = try client.request(.PUT, "/api/tables/tasks/items/t2", headers: ana, body: rename)
            let missing = try client.request(.PUT, "/api/tables/tasks/items/t9", headers: ana, body: rename)
            #expect(hidden.status == 404)
            #expect(hidden.text == missing.text.replacingOccurrences(of: "t9", with: "t2"))
            #expect(try client.request(.POST, "/api/tables/tasks/items/t4/select", headers: ana).status == 404)
            // Index paths and sections are the table's, not the reader's view's.
            for (method, path) in [
                (HTTPMethod.PUT, "/api/tables/tasks/sections/0/rows/0"), (.POST, "/api/tables/tasks/items"),
                (.POST, "/api/tables/tasks/batch-by-id"), (.PATCH, "/api/tables/tasks"),
            ] {
                let refused = try client.request(method, path, headers: ana, body: rename)
                #expect(refused.status == 403, "\(method) \(path)")
                #expect(try refused.json["type"]?.string == "bound-to-view", "\(method) \(path)")
            }
            let table = try client.request(.GET, "/api/tables/tasks", headers: admin).json
            #expect(table["version"]?.int == 1)
            #expect(table["sections"]?[0]?["rows"]?[1]?["text"]?.string == "Task t2")
        }
    }

    @Test func aClaimIsAValueNeverTheViewsSyntax() async throws {
        try await withTasks(.inProcess) { client, keys in
            for sub in ["x&filter[fields.owner][ne]=x", "ana&q=", "{sub}", "ana%26q%3D"] {
                let reader = bearer(try await keys.token(sub: sub, roles: ["member"]))
                let table = try client.request(.GET, "/api/tables/tasks", headers: reader)
                #expect(table.status == 200, "\(sub)")
                #expect(try table.json["sections"]?.array?.isEmpty == true, "\(sub)")
            }
            // Without the claim the view needs, the rule gives nothing.
            let nameless = bearer(try await keys.token(roles: ["member"]))
            #expect(try client.request(.GET, "/api/tables/tasks", headers: nameless).status == 403)
        }
    }

    @Test(arguments: [
        (#""rows": "filter[fields.owner]={sub}", "right": "admin""#, "never admin"),
        (#""rows": "sort={sub}", "right": "read""#, "a claim may stand only in a filter's value"),
        (#""rows": "filter[owner]={sub}", "right": "read""#, "unknown key"),
        (#""rows": "limit=1&q=a", "right": "read""#, "not a view's parameter"),
        (#""rows": "sort=text", "right": "read""#, "has q or a filter"),
        (#""rows": "filter[text]={sub", "right": "read""#, "a claim is {NAME}"),
        (#""rows": 3, "right": "read""#, "a string"),
    ])
    func aRuleWhoseRowsAreNoViewIsRefusedSayingWhy(_ members: String, _ reason: String) {
        let text = #"{"rules": [{"tables": ["t"], "sub": "a", \#(members)}]}"#
        #expect {
            try AccessPolicy(json: text)
        } throws: { error in
            (error as? AccessFileError)?.reason.contains(reason) == true
        }
    }

    /// The stream of a bound reader is, event for event, the stream of the
    /// view it is bound to, while an editor changes rows in and out of it.
    @Test func aBoundReadersStreamIsTheStreamOfItsView() async throws {
        let stream = EventStreams()
        try await withTasks(.live) { client, keys in
            let ana = try await keys.token(sub: "ana", roles: ["member"])
            let editor = bearer(try await keys.token(sub: "ed", roles: ["editor"]))
            let bound = try stream.subscribe(
                client, "/api/tables/tasks/events?since=0", headers: "Authorization: Bearer \(ana)\r\n")
            defer { bound.close() }
            let viewed = try stream.subscribe(
                client, "/api/tables/tasks/events?since=0&\(view)",
                headers: "Authorization: Bearer \(AccessMatrixTests.editToken)\r\n")
            defer { viewed.close() }
            _ = stream.read(bound, until: "\n\n")
            _ = stream.read(viewed, until: "\n\n")
            let edits: [(HTTPMethod, String, String)] = [
                (.PUT, "/api/tables/tasks/items/t2", #"{"text": "Bob's, renamed"}"#),
                (.PUT, "/api/tables/tasks/items/t1", #"{"text": "Ana's, renamed"}"#),
                (.PATCH, "/api/tables/tasks/items/t4", #"{"fields": {"owner": "ana"}}"#),
                (.DELETE, "/api/tables/tasks/items/t5", ""),
                (.PATCH, "/api/tables/tasks/items/t3", #"{"fields": {"owner": "bob"}}"#),
            ]
            for (method, path, json) in edits {
                var headers = editor
                if method == .PATCH { headers.set("Content-Type", "application/merge-patch+json") }
                let response = try client.request(method, path, headers: headers, body: body(json))
                #expect(response.status == 200, "\(method) \(path)")
            }
            let boundText = stream.read(bound, until: "id: 5\n")
            let viewedText = stream.read(viewed, until: "id: 5\n")
            #expect(boundText.contains("event: update\nid: 2\n"))
            #expect(!boundText.contains("id: 1\n"))
            #expect(boundText == viewedText)
        }
    }
}
