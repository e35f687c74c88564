import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// Rows by id beyond the edits: reading one with its index path, selecting and
/// deselecting one, as the other actions by id do.
@Suite struct ItemByIDAPITests {
    @Test(arguments: [TestTransport.inProcess, .live])
    func readsAnItemWithItsIndexPath(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let item = try client.request(.GET, "/api/tables/t/items/b1")
            #expect(item.status == 200)
            #expect(item.headers["ETag"] == "\"0\"")
            #expect(try item.json["at"] == .array([.integer(1), .integer(1)]))
            #expect(try item.json["row"]?["text"]?.string == "B1")
            let head = try client.request(.HEAD, "/api/tables/t/items/b1")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(
                try client.request(.GET, "/api/tables/t/items/b1", headers: ["If-None-Match": "\"0\""]).status == 304)

            _ = try client.request(
                .POST, "/api/tables/t/items/b1/move", headers: jsonHeaders, body: body(#"{"beforeItem": "a0"}"#))
            let moved = try client.request(.GET, "/api/tables/t/items/b1")
            #expect(try moved.json["at"] == .array([.integer(0), .integer(0)]), "where it is now")
            #expect(moved.headers["ETag"] == "\"1\"")

            let missing = try client.request(.GET, "/api/tables/t/items/zz")
            #expect(missing.status == 404)
            #expect(try missing.json["detail"]?.string == #"table "t" has no item "zz""#)
            #expect(try client.request(.GET, "/api/tables/nope/items/a0").status == 404)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func selectsAndDeselectsByID(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let selected = try client.request(.POST, "/api/tables/t/items/a2/select")
            #expect(selected.status == 200)
            #expect(try selected.json["batch"]?["reloadRows"]?[0]?["at"] == .array([.integer(0), .integer(2)]))
            #expect(try selected.json["batch"]?["animation"]?.string == "none")
            #expect(try client.request(.GET, "/api/tables/t/items/a2").json["row"]?["selected"] == .bool(true))

            // Single selection: selecting another clears a2 in the same change.
            let other = try client.request(
                .POST, "/api/tables/t/items/b0/select?animation=fade", headers: ["If-Match": "\"1\""])
            #expect(try other.json["batch"]?["reloadRows"]?.array?.count == 2)
            #expect(try other.json["batch"]?["animation"]?.string == "fade")
            #expect(try client.request(.GET, "/api/tables/t/items/a2").json["row"]?["selected"] == .bool(false))

            let deselected = try client.request(.POST, "/api/tables/t/items/b0/deselect")
            #expect(try deselected.json["version"]?.int == 3)
            #expect(try client.request(.GET, "/api/tables/t/items/b0").json["row"]?["selected"] == .bool(false))

            let unknown = try client.request(.POST, "/api/tables/t/items/zz/select")
            #expect(unknown.status == 409)
            #expect(try unknown.json["type"]?.string == "unknown-id")
            #expect(try unknown.json["detail"]?.string == #"attempt to select item "zz", which is not in the table"#)
            let stale = try client.request(.POST, "/api/tables/t/items/a0/deselect", headers: ["If-Match": "\"1\""])
            #expect(stale.status == 412)

            _ = try client.request(
                .PATCH, "/api/tables/t", headers: jsonHeaders, body: body(#"{"allowsSelection": false}"#))
            let refused = try client.request(.POST, "/api/tables/t/items/a0/select")
            #expect(refused.status == 409)
            #expect(try refused.json["type"]?.string == "selection-disabled")
        }
    }
}
