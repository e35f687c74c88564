import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// Requests a new user gets nearly right: each is answered with what it
/// obviously means, or refused in words that say what to send instead.
@Suite struct NearMissAPITests {
    /// A single-row insert takes `at` as a batch does, `[section, row]`, as
    /// well as the row alone; an index path of another section is refused.
    @Test(arguments: [TestTransport.inProcess, .live])
    func aSingleInsertTakesAnIndexPath(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let inserted = try client.request(
                .POST, "/api/tables/t/sections/1/rows", headers: jsonHeaders,
                body: body(#"{"at": [1, 1], "row": {"id": "n", "text": "N"}}"#))
            #expect(inserted.status == 200)
            #expect(try inserted.json["batch"]?["insertRows"]?[0]?["at"] == .array([.integer(1), .integer(1)]))
            let byRow = try client.request(
                .POST, "/api/tables/t/sections/1/rows", headers: jsonHeaders,
                body: body(#"{"at": 0, "row": {"id": "m", "text": "M"}}"#))
            #expect(try byRow.json["batch"]?["insertRows"]?[0]?["at"] == .array([.integer(1), .integer(0)]))

            let elsewhere = try client.request(
                .POST, "/api/tables/t/sections/1/rows", headers: jsonHeaders,
                body: body(#"{"at": [0, 1], "row": {"text": "X"}}"#))
            #expect(elsewhere.status == 422)
            #expect(
                try elsewhere.json["detail"]?.string
                    == "$.at: the index path [0, 1] names section 0, but the request is for section 1")
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 2)
        }
    }

    /// `If-Match: 7` names no entity tag: 400, saying tags are quoted, whatever
    /// the table's version; a quoted tag of another version stays a 412.
    @Test(arguments: [TestTransport.inProcess, .live])
    func anUnquotedIfMatchSaysTagsAreQuoted(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            for tag in ["0", "1", "\"0\", 0"] {
                let refused = try client.request(.DELETE, "/api/tables/t/sections/0/rows/0", headers: ["If-Match": tag])
                #expect(refused.status == 400, "If-Match: \(tag)")
                #expect(try refused.json["type"]?.string == "malformed-entity-tag")
            }
            let unquoted = try client.request(
                .POST, "/api/tables/t/batch", headers: ["Content-Type": "application/json", "If-Match": "0"],
                body: body("{}"))
            #expect(
                try unquoted.json["detail"]?.string
                    == #"If-Match: 0 names no version: entity tags are quoted, as ETag sends them (If-Match: "0")"#)
            #expect(try client.request(.DELETE, "/api/tables/t", headers: ["If-Match": "W/0"]).status == 400)
            #expect(
                try client.request(.DELETE, "/api/tables/t/sections/0/rows/0", headers: ["If-Match": "\"3\""]).status
                    == 412)
            #expect(
                try client.request(.DELETE, "/api/tables/t/sections/0/rows/0", headers: ["If-Match": "W/\"0\""]).status
                    == 412)
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
            #expect(
                try client.request(.DELETE, "/api/tables/t/sections/0/rows/0", headers: ["If-Match": "\"0\""]).status
                    == 200)
        }
    }

    /// A duplicate id is refused saying which id, and where the item holding it is.
    @Test(arguments: [TestTransport.inProcess, .live])
    func aDuplicateIDSaysWhereItIs(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let duplicate = try client.request(
                .POST, "/api/tables/t/items", headers: jsonHeaders,
                body: body(#"{"row": {"id": "b1", "text": "again"}, "toSection": "a"}"#))
            #expect(duplicate.status == 409)
            #expect(try duplicate.json["type"]?.string == "duplicate-id")
            #expect(
                try duplicate.json["detail"]?.string
                    == #"attempt to insert item "b1", which is already in the table at [1, 1] in section "b"; item ids are unique"#
            )
        }
    }

    /// A trailing slash or an empty segment is redirected (308, method and
    /// body kept) to the route it misses; a path near no route stays a 404.
    @Test(arguments: [TestTransport.inProcess, .live])
    func nearMissPathsRedirect(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let list = try client.request(.GET, "/api/tables/")
            #expect(list.status == 308)
            #expect(list.headers["Location"] == "/api/tables")
            let rows = try client.request(.GET, "/api//tables/t/sections/0/rows/?limit=2&offset=1")
            #expect(rows.status == 308)
            #expect(rows.headers["Location"] == "/api/tables/t/sections/0/rows?limit=2&offset=1")
            let edit = try client.request(.POST, "/api/tables/t/batch/", headers: jsonHeaders, body: body("{}"))
            #expect(edit.status == 308)
            #expect(edit.headers["Location"] == "/api/tables/t/batch")
            let page = try client.request(.GET, "/tables/t/?style=grouped%20x")
            #expect(page.headers["Location"] == "/tables/t?style=grouped%20x")
            #expect(try client.request(.GET, "/api/nothing/").status == 404)
            #expect(try client.request(.GET, "/api/tables").status == 200)
        }
    }

    /// `changes?since=` beyond the table's version says so, not that the
    /// changes are no longer kept.
    @Test(arguments: [TestTransport.inProcess, .live])
    func changesSinceBeyondTheVersionSaySo(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let ahead = try client.request(.GET, "/api/tables/t/changes?since=99")
            #expect(ahead.status == 410)
            #expect(try ahead.json["type"]?.string == "history-gone")
            #expect(
                try ahead.json["detail"]?.string
                    == "version 99 is beyond the table's version 0: this table never had it (was it deleted and created again?); reload the table"
            )
        }
    }
}
