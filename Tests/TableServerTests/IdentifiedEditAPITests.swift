import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// Edits by id over HTTP: the batch and each single operation, answered and
/// published as index batches; unknown and duplicate ids refused.
@Suite struct IdentifiedEditAPITests {
    func ids(_ client: TestClient) throws -> [[String]] {
        let table = try client.request(.GET, "/api/tables/t").json
        return table["sections"]?.array?.map { section in
            section["rows"]?.array?.compactMap { $0["id"]?.string } ?? []
        } ?? []
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func moveByIDAsAgreed(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let after = try client.request(
                .POST, "/api/tables/t/items/a0/move", headers: jsonHeaders, body: body(#"{"afterItem": "a2"}"#))
            #expect(after.status == 200)
            #expect(
                after.text == #"{"version":1,"batch":{"moveRows":[{"from":[0,0],"to":[0,2]}],"animation":"automatic"}}"#
                    + "\n")
            let before = try client.request(
                .POST, "/api/tables/t/items/b1/move?animation=fade",
                headers: ["Content-Type": "application/json", "If-Match": "\"1\""],
                body: body(#"{"beforeItem": "a1"}"#))
            #expect(
                try before.json["batch"]?["moveRows"]
                    == .array([
                        .object(
                            JSONObject([
                                JSONMember("from", .array([.integer(1), .integer(1)])),
                                JSONMember("to", .array([.integer(0), .integer(0)])),
                            ]))
                    ]))
            #expect(try before.json["batch"]?["animation"]?.string == "fade")
            let toSection = try client.request(
                .POST, "/api/tables/t/items/a3/move", headers: jsonHeaders, body: body(#"{"toSection": "b"}"#))
            #expect(toSection.status == 200)
            #expect(try ids(client) == [["b1", "a1", "a2", "a0", "a4", "a5", "a6"], ["b0", "a3"]])

            let stale = try client.request(
                .POST, "/api/tables/t/items/a3/move",
                headers: ["Content-Type": "application/json", "If-Match": "\"1\""],
                body: body(#"{"toSection": "a"}"#))
            #expect(stale.status == 412)
            let unknown = try client.request(
                .POST, "/api/tables/t/items/zz/move", headers: jsonHeaders, body: body(#"{"beforeItem": "a1"}"#))
            #expect(unknown.status == 409)
            #expect(try unknown.json["type"]?.string == "unknown-id")
            #expect(try unknown.json["detail"]?.string == #"attempt to move item "zz", which is not in the table"#)
            let unknownAnchor = try client.request(
                .POST, "/api/tables/t/items/a1/move", headers: jsonHeaders, body: body(#"{"afterItem": "zz"}"#))
            #expect(try unknownAnchor.json["type"]?.string == "unknown-id")
            let two = try client.request(
                .POST, "/api/tables/t/items/a1/move", headers: jsonHeaders,
                body: body(#"{"afterItem": "a2", "toSection": "b"}"#))
            #expect(two.status == 422)
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 3)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func aBatchByIDIsOneIndexBatch(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let response = try client.request(
                .POST, "/api/tables/t/batch-by-id", headers: jsonHeaders,
                body: body(
                    #"""
                    {"edits": [
                       {"deleteItems": ["a1", "a5"]},
                       {"insertItems": [{"id": "n2", "text": "N2"}, {"id": "n3", "text": "N3"}], "afterItem": "a2"},
                       {"reloadItems": [{"id": "a4", "text": "A4 reloaded"}]},
                       {"appendSections": [{"id": "c", "header": "C", "rows": [{"id": "c0", "text": "C0"}]}]},
                       {"moveItem": "b0", "toSection": "c"}],
                     "animation": "fade"}
                    """#))
            #expect(response.status == 200)
            let batch = try response.json["batch"]
            #expect(
                batch?["deleteRows"] == .array([[0, 1], [0, 5], [1, 0]].map { .array($0.map { .integer($0) }) }))
            #expect(batch?["insertRows"]?.array?.compactMap { $0["row"]?["id"]?.string } == ["n2", "n3"])
            #expect(batch?["reloadRows"]?[0]?["at"] == .array([.integer(0), .integer(4)]))
            #expect(
                batch?["insertSections"]?[0]?["section"]?["rows"]?.array?.compactMap { $0["id"]?.string } == [
                    "c0", "b0",
                ])
            #expect(batch?["animation"]?.string == "fade")
            #expect(try ids(client) == [["a0", "a2", "n2", "n3", "a3", "a4", "a6"], ["b1"], ["c0", "b0"]])
            // The change feed carries the index batch, as for any other edit.
            let feed = try client.request(.GET, "/api/tables/t/changes?since=0").json
            #expect(feed["changes"]?[0]?["batch"] == batch)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func refusalsChangeNothing(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let unknown = try client.request(
                .POST, "/api/tables/t/batch-by-id", headers: jsonHeaders,
                body: body(#"{"edits": [{"deleteItems": ["a0"]}, {"deleteItems": ["zz"]}]}"#))
            #expect(unknown.status == 409)
            #expect(try unknown.json["detail"]?.string == #"attempt to delete item "zz", which is not in the table"#)
            let duplicate = try client.request(
                .POST, "/api/tables/t/items", headers: jsonHeaders,
                body: body(#"{"row": {"id": "b0"}, "beforeItem": "a0"}"#))
            #expect(duplicate.status == 409)
            #expect(try duplicate.json["type"]?.string == "duplicate-id")
            let invalid = try client.request(
                .POST, "/api/tables/t/batch-by-id", headers: jsonHeaders,
                body: body(
                    #"{"edits": [{"insertItems": [{"text": "no id"}]}, {"moveItem": "a0", "deleteItems": ["a1"]}, {}]}"#
                ))
            #expect(invalid.status == 422)
            #expect(
                try invalid.json["errors"]?.array?.compactMap { $0["path"]?.string } == [
                    "$.edits[0]", "$.edits[0].insertItems[0]", "$.edits[1]", "$.edits[2]",
                ])
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func singleOperationsByID(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let inserted = try client.request(
                .POST, "/api/tables/t/items", headers: jsonHeaders,
                body: body(#"{"rows": [{"id": "n0", "text": "N0"}, {"id": "n1", "text": "N1"}], "toSection": "b"}"#))
            #expect(
                try inserted.json["batch"]?["insertRows"]?.array?.compactMap { $0["at"] } == [
                    .array([.integer(1), .integer(2)]), .array([.integer(1), .integer(3)]),
                ])
            let reloaded = try client.request(
                .PUT, "/api/tables/t/items/n0", headers: jsonHeaders, body: body(#"{"text": "N0!"}"#))
            #expect(try reloaded.json["batch"]?["reloadRows"]?[0]?["row"]?["id"]?.string == "n0")
            #expect(try reloaded.json["batch"]?["animation"]?.string == "automatic")
            let reconfigured = try client.request(
                .POST, "/api/tables/t/items/n1/reconfigure", headers: jsonHeaders,
                body: body(#"{"id": "n1", "text": "N1!"}"#))
            #expect(try reconfigured.json["batch"]?["animation"]?.string == "none")
            let otherID = try client.request(
                .PUT, "/api/tables/t/items/n0", headers: jsonHeaders, body: body(#"{"id": "x"}"#))
            #expect(otherID.status == 422)
            #expect(try otherID.json["detail"]?.string == #"$.id: "x" does not match the row in the path ("n0")"#)
            #expect(
                try client.request(.DELETE, "/api/tables/t/items/n0").json["batch"]?["deleteRows"]
                    == .array([.array([.integer(1), .integer(2)])]))
            #expect(try client.request(.DELETE, "/api/tables/t/items/n0").status == 409)

            let section = try client.request(
                .POST, "/api/tables/t/section-ids", headers: jsonHeaders,
                body: body(#"{"section": {"id": "z", "header": "Z", "rows": [{"id": "z0"}]}, "beforeSection": "a"}"#))
            #expect(try section.json["batch"]?["insertSections"]?[0]?["at"]?.int == 0)
            let renamed = try client.request(
                .PUT, "/api/tables/t/section-ids/z", headers: jsonHeaders, body: body(#"{"header": "Zed"}"#))
            #expect(try renamed.json["batch"]?["reloadSections"]?[0]?["section"]?["rows"]?.array?.count == 1)
            #expect(
                try client.request(
                    .PUT, "/api/tables/t/section-ids/z", headers: jsonHeaders,
                    body: body(#"{"rows": []}"#)
                ).status == 422)
            let moved = try client.request(
                .POST, "/api/tables/t/section-ids/z/move", headers: jsonHeaders, body: body(#"{"afterSection": "b"}"#))
            #expect(
                try moved.json["batch"]?["moveSections"]
                    == .array([
                        .object(
                            JSONObject([
                                JSONMember("from", .integer(0)), JSONMember("to", .integer(2)),
                            ]))
                    ]))
            #expect(
                try client.request(.DELETE, "/api/tables/t/section-ids/a").json["batch"]?["deleteSections"]
                    == .array([.integer(0)]))
            #expect(try ids(client) == [["b0", "b1", "n1"], ["z0"]])
            #expect(try client.request(.DELETE, "/api/tables/t/section-ids/a").status == 409)
        }
    }

    /// A path id no item can have is refused as a parameter (400) before the
    /// table is looked at: `If-Match` naming another version does not turn it into a 412.
    @Test(arguments: [TestTransport.inProcess, .live])
    func aPathIDThatIsNoIDIsABadParameter(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let stale: HTTPHeaders = ["Content-Type": "application/json", "If-Match": "\"7\""]
            let requests: [(HTTPMethod, String, String?)] = [
                (.PUT, "/api/tables/t/items/a%20b", #"{"text": "x"}"#),
                (.POST, "/api/tables/t/items/a%20b/reconfigure", #"{"text": "x"}"#),
                (.DELETE, "/api/tables/t/items/a%20b", nil),
                (.POST, "/api/tables/t/items/a%20b/move", #"{"toSection": "b"}"#),
                (.POST, "/api/tables/t/items/a%20b/switch", #"{"on": true}"#),
                (.POST, "/api/tables/t/items/%16%C2%8C/press", nil),
                (.POST, "/api/tables/t/items/a%20b/select", nil),
                (.POST, "/api/tables/t/items/a%20b/deselect", nil),
                (.GET, "/api/tables/t/items/a%20b", nil),
                (.PUT, "/api/tables/t/section-ids/a%20b", #"{"header": "x"}"#),
                (.DELETE, "/api/tables/t/section-ids/a%20b", nil),
                (.POST, "/api/tables/t/section-ids/a%20b/move", #"{"afterSection": "b"}"#),
            ]
            for (method, path, text) in requests {
                let answer = try client.request(method, path, headers: stale, body: text.map(body) ?? [])
                #expect(answer.status == 400, "\(method) \(path)")
                #expect(try answer.json["type"]?.string == "bad-parameter", "\(method) \(path)")
            }
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
        }
    }
}
