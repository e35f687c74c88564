import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// Batches, single operations, selection, versions and the change feed.
@Suite struct EditAPITests {
    func texts(_ client: TestClient, section: Int) throws -> [String] {
        let page = try client.request(.GET, "/api/tables/t/sections/\(section)/rows").json
        return page["rows"]?.array?.compactMap { $0["text"]?.string } ?? []
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func appliesTheWorkedExample(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let response = try client.request(
                .POST, "/api/tables/t/batch", headers: jsonHeaders,
                body: body(
                    #"""
                    {"deleteRows": [[0, 5], [0, 1]],
                     "insertRows": [{"at": [0, 3], "row": {"text": "N3"}}, {"at": [0, 2], "row": {"text": "N2"}}],
                     "reloadRows": [{"at": [0, 4], "row": {"id": "a4", "text": "A4'"}}]}
                    """#))
            #expect(response.status == 200)
            let change = try response.json
            #expect(change["version"]?.int == 1)
            #expect(
                change["batch"]?["deleteRows"]
                    == .array([.array([.integer(0), .integer(1)]), .array([.integer(0), .integer(5)])]))
            #expect(change["batch"]?["insertRows"]?[0]?["row"]?["accessory"]?.string == "none")
            #expect(change["batch"]?["animation"]?.string == "automatic")
            #expect(change["batch"]?["moveRows"] == nil)
            #expect(try texts(client, section: 0) == ["A0", "A2", "N2", "N3", "A3", "A4'", "A6"])
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func refusesInUIKitsWords(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let response = try client.request(
                .POST, "/api/tables/t/batch", headers: jsonHeaders,
                body: body(#"{"deleteRows": [[1, 3]], "insertRows": [{"at": [0, 0], "row": {"text": "x"}}]}"#))
            #expect(response.status == 409)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(
                try response.json["detail"]?.string
                    == "attempt to delete row 3 from section 1 which only contains 2 rows before the update")
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
            #expect(try texts(client, section: 0).first == "A0")

            let expect = try client.request(
                .POST, "/api/tables/t/batch", headers: jsonHeaders,
                body: body(#"{"insertRows": [{"at": [0, 0], "row": {}}], "expect": {"rows": [7, 2]}}"#))
            #expect(expect.status == 409)
            #expect(
                try expect.json["detail"]?.string?.hasPrefix("Invalid update: invalid number of rows in section 0.")
                    == true)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func singleOperations(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            #expect(try client.request(.DELETE, "/api/tables/t/sections/0/rows/0").status == 200)
            #expect(try texts(client, section: 0).first == "A1")

            let inserted = try client.request(
                .POST, "/api/tables/t/sections/1/rows", headers: jsonHeaders,
                body: body(#"{"rows": [{"text": "B2"}, {"text": "B3"}]}"#))
            #expect(try inserted.json["version"]?.int == 2)
            #expect(try texts(client, section: 1) == ["B0", "B1", "B2", "B3"])

            let moved = try client.request(
                .POST, "/api/tables/t/sections/1/rows/3/move", headers: jsonHeaders, body: body(#"{"to": [0, 0]}"#))
            #expect(moved.status == 200)
            #expect(try texts(client, section: 0).first == "B3")

            let reload = try client.request(
                .PUT, "/api/tables/t/sections/0/rows/0", headers: jsonHeaders, body: body(#"{"text": "Reloaded"}"#))
            #expect(reload.status == 200)
            #expect(try texts(client, section: 0).first == "Reloaded")

            let section = try client.request(
                .POST, "/api/tables/t/sections", headers: jsonHeaders,
                body: body(#"{"at": 0, "section": {"header": "New", "rows": [{"text": "N"}]}}"#))
            #expect(section.status == 200)
            #expect(try texts(client, section: 0) == ["N"])
            #expect(
                try client.request(
                    .POST, "/api/tables/t/sections/0/move", headers: jsonHeaders, body: body(#"{"to": 2}"#)
                ).status == 200)
            #expect(try texts(client, section: 2) == ["N"])
            #expect(try client.request(.DELETE, "/api/tables/t/sections/2").status == 200)
            #expect(try client.request(.GET, "/api/tables/t/sections").json["sections"]?.array?.count == 2)
            #expect(try client.request(.DELETE, "/api/tables/t/sections/2").status == 404)
            #expect(try client.request(.GET, "/api/tables/t").headers["ETag"] == "\"7\"")
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func singleOperationsTakeAnAnimation(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let deleted = try client.request(.DELETE, "/api/tables/t/sections/0/rows/0?animation=left")
            #expect(try deleted.json["batch"]?["animation"]?.string == "left")
            let refused = try client.request(.DELETE, "/api/tables/t/sections/0/rows/0?animation=sideways")
            #expect(refused.status == 400)
            #expect(try refused.json["type"]?.string == "bad-parameter")
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 1)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func aPatchThatChangesNothingIsANoOp(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let same = try client.request(
                .PATCH, "/api/tables/t", headers: jsonHeaders, body: body(#"{"title": "Fixture", "style": "plain"}"#))
            #expect(same.status == 200)
            #expect(try same.json["version"]?.int == 0)
            let changed = try client.request(
                .PATCH, "/api/tables/t", headers: jsonHeaders, body: body(#"{"title": "Fixture", "style": "grouped"}"#))
            #expect(try changed.json["version"]?.int == 1)
            let feed = try client.request(.GET, "/api/tables/t/changes?since=0").json
            #expect(feed["changes"]?.array?.count == 1)
            #expect(feed["changes"]?[0]?["batch"]?["properties"]?["style"]?.string == "grouped")
            #expect(feed["changes"]?[0]?["batch"]?["properties"]?["title"] == nil)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func selection(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            #expect(try client.request(.POST, "/api/tables/t/sections/0/rows/1/select").status == 200)
            let second = try client.request(.POST, "/api/tables/t/sections/1/rows/0/select").json
            // Single selection: the row selected before is cleared in the same change.
            #expect(second["batch"]?["reloadRows"]?.array?.count == 2)
            #expect(second["batch"]?["animation"]?.string == "none")
            let again = try client.request(.POST, "/api/tables/t/sections/1/rows/0/select").json
            #expect(again["batch"] == .object(JSONObject([JSONMember("animation", .string("automatic"))])))
            #expect(again["version"]?.int == 2)
            #expect(try client.request(.GET, "/api/tables/t/sections/0/rows/1").json["selected"] == .bool(false))
            #expect(try client.request(.POST, "/api/tables/t/sections/1/rows/0/deselect").status == 200)
            #expect(try client.request(.GET, "/api/tables/t/sections/1/rows/0").json["selected"] == .bool(false))

            _ = try client.request(
                .PATCH, "/api/tables/t", headers: jsonHeaders, body: body(#"{"allowsSelection": false}"#))
            let refused = try client.request(.POST, "/api/tables/t/sections/1/rows/0/select")
            #expect(refused.status == 409)
            #expect(try refused.json["type"]?.string == "selection-disabled")
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func versionsAndTheChangeFeed(_ transport: TestTransport) throws {
        try withServer(transport, configure: { $0.history = 2 }) { client in
            for _ in 0..<3 {
                #expect(
                    try client.request(.DELETE, "/api/tables/t/sections/0/rows/0", headers: ["If-Match": "*"]).status
                        == 200)
            }
            let stale = try client.request(.DELETE, "/api/tables/t/sections/0/rows/0", headers: ["If-Match": "\"1\""])
            #expect(stale.status == 412)
            let feed = try client.request(.GET, "/api/tables/t/changes?since=1").json
            #expect(feed["version"]?.int == 3)
            #expect(feed["changes"]?.array?.compactMap { $0["version"]?.int } == [2, 3])
            #expect(try client.request(.GET, "/api/tables/t/changes?since=0").status == 410)
            #expect(try client.request(.GET, "/api/tables/t/changes?since=4").status == 410)
            #expect(try client.request(.GET, "/api/tables/t/changes?since=3").json["changes"]?.array?.isEmpty == true)
            let empty = try client.request(.POST, "/api/tables/t/batch", headers: jsonHeaders, body: body("{}"))
            #expect(try empty.json["version"]?.int == 3)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func snapshotPut(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let response = try client.request(
                .PUT, "/api/tables/t", headers: jsonHeaders,
                body: body(
                    #"""
                    {"id": "t", "title": "Fixture", "sections": [
                      {"id": "b", "header": "B", "footer": "End", "rows": [{"id": "a3", "text": "A3"}, {"id": "b0", "text": "B0"}]},
                      {"id": "a", "header": "A", "rows": [{"id": "a0", "text": "A0 changed"}, {"id": "new", "text": "New"}, {"id": "b1", "text": "B1"}]}]}
                    """#))
            #expect(response.status == 200)
            let answer = try response.json
            let version = try #require(answer["version"]?.int)
            #expect(version >= 1)
            #expect(answer["changes"]?.array?.count == version)
            #expect(try texts(client, section: 0) == ["A3", "B0"])
            #expect(try texts(client, section: 1) == ["A0 changed", "New", "B1"])
            // Putting back what GET answers changes nothing.
            let current = try client.request(.GET, "/api/tables/t").body
            let again = try client.request(.PUT, "/api/tables/t", headers: jsonHeaders, body: current)
            #expect(try again.json["changes"]?.array?.isEmpty == true)
            #expect(try again.json["version"]?.int == version)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func editTokenGuardsEdits(_ transport: TestTransport) throws {
        try withServer(transport, configure: { $0.token = "s3cret" }) { client in
            #expect(try client.request(.GET, "/api/tables/t").status == 200)
            let refused = try client.request(.DELETE, "/api/tables/t/sections/0/rows/0")
            #expect(refused.status == 401)
            #expect(refused.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            #expect(
                try client.request(
                    .DELETE, "/api/tables/t/sections/0/rows/0", headers: ["Authorization": "Bearer wrong"]
                ).status == 401)
            #expect(
                try client.request(
                    .DELETE, "/api/tables/t/sections/0/rows/0", headers: ["Authorization": "Bearer s3cret"]
                ).status == 200)
        }
    }
}
