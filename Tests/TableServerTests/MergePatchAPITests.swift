import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// `PATCH` of a row and of a section by id (docs/API.md, "Patching a row or a
/// section"): a JSON Merge Patch changes only what it names, `null` removes,
/// the id is kept, and the change is a reload by id like any other edit.
@Suite(.timeLimit(.minutes(1))) struct MergePatchAPITests {
    static let mergePatch: HTTPHeaders = ["Content-Type": "application/merge-patch+json"]

    func patch(_ client: TestClient, _ path: String, _ text: String, headers: HTTPHeaders = mergePatch) throws
        -> TestResponse
    {
        try client.request(.PATCH, path, headers: headers, body: body(text))
    }

    func row(_ client: TestClient, _ id: String) throws -> JSONValue? {
        try client.request(.GET, "/api/tables/t/items/\(id)").json["row"]
    }

    /// a1 with a detail and two fields, at version 1.
    func giveA1DetailAndFields(_ client: TestClient) throws {
        let put = try client.request(
            .PUT, "/api/tables/t/items/a1", headers: jsonHeaders,
            body: body(#"{"text": "A1", "detail": "first", "fields": {"pop": 3, "area": 9}}"#))
        #expect(put.status == 200)
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func changesOnlyWhatItNames(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            try giveA1DetailAndFields(client)
            let text = try patch(client, "/api/tables/t/items/a1", #"{"text": "One"}"#)
            #expect(text.status == 200)
            #expect(text.headers["ETag"] == "\"2\"")
            #expect(try text.json["version"]?.int == 2)
            #expect(try text.json["batch"]?["reloadRows"]?[0]?["at"] == .array([.integer(0), .integer(1)]))
            #expect(try text.json["batch"]?["reloadRows"]?[0]?["row"]?["text"]?.string == "One")
            #expect(try row(client, "a1")?["detail"]?.string == "first", "a member not named stays")

            // fields, member by member: one set, the others kept; null removes one.
            _ = try patch(client, "/api/tables/t/items/a1", #"{"fields": {"pop": 5}}"#)
            #expect(try row(client, "a1")?["fields"] == (try JSONParser().parse(#"{"pop": 5, "area": 9}"#)))
            _ = try patch(client, "/api/tables/t/items/a1", #"{"fields": {"pop": null}}"#)
            #expect(try row(client, "a1")?["fields"] == (try JSONParser().parse(#"{"area": 9}"#)))

            // null removes the detail; plain application/json is a merge patch too.
            let removed = try patch(client, "/api/tables/t/items/a1", #"{"detail": null}"#, headers: jsonHeaders)
            #expect(removed.status == 200)
            #expect(try row(client, "a1")?["detail"] == .null)
            #expect(try row(client, "a1")?["text"]?.string == "One")
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 5)
        }
    }

    @Test func aPatchThatChangesNothingMakesNoVersion() throws {
        try withServer(.inProcess) { client in
            try giveA1DetailAndFields(client)
            for text in [#"{"text": "A1"}"#, #"{"fields": {"pop": 3}}"#, "{}", #"{"id": "a1", "image": null}"#] {
                let same = try patch(client, "/api/tables/t/items/a1", text)
                #expect(same.status == 200, "\(text)")
                #expect(try same.json["version"]?.int == 1, "\(text)")
            }
            let section = try patch(client, "/api/tables/t/section-ids/b", #"{"header": "B"}"#)
            #expect(try section.json["version"]?.int == 1)
            #expect(try client.request(.GET, "/api/tables/t/changes?since=1").json["changes"]?.array?.count == 0)
        }
    }

    @Test func theIdCannotBeChangedOrRemoved() throws {
        try withServer(.inProcess) { client in
            for text in [#"{"id": "z9", "text": "Z"}"#, #"{"id": null}"#, #"{"id": 7}"#] {
                let refused = try patch(client, "/api/tables/t/items/a1", text)
                #expect(refused.status == 422, "\(text)")
                #expect(try refused.json["errors"]?[0]?["path"]?.string == "$.id", "\(text)")
            }
            let section = try patch(client, "/api/tables/t/section-ids/a", #"{"id": "c"}"#)
            #expect(section.status == 422)
            #expect(try section.json["errors"]?[0]?["path"]?.string == "$.id")
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
            #expect(try row(client, "a1")?["text"]?.string == "A1")
        }
    }

    @Test func anInvalidResultIsRefusedWithItsPathAndChangesNothing() throws {
        try withServer(.inProcess) { client in
            let wrong = try patch(client, "/api/tables/t/items/a1", #"{"text": "ok", "accessory": "sparkles"}"#)
            #expect(wrong.status == 422)
            #expect(try wrong.json["errors"]?[0]?["path"]?.string == "$.accessory")
            let notObject = try patch(client, "/api/tables/t/items/a1", #"["text"]"#)
            #expect(notObject.status == 422, "a patch that is no object replaces the row: no row")
            let rows = try patch(client, "/api/tables/t/section-ids/a", #"{"rows": []}"#)
            #expect(rows.status == 422)
            #expect(try rows.json["errors"]?[0]?["path"]?.string == "$.rows")
            let malformed = try patch(client, "/api/tables/t/items/a1", #"{"text": "#)
            #expect(malformed.status == 400)
            let csv = try patch(client, "/api/tables/t/items/a1", "text\nx\n", headers: ["Content-Type": "text/csv"])
            #expect(csv.status == 415)
            #expect(csv.headers["Accept"] == "application/merge-patch+json, application/json")
            #expect(csv.headers["Accept-Patch"] == "application/merge-patch+json")
            #expect(
                try csv.json["detail"]?.string
                    == #"send the body with Content-Type: application/merge-patch+json or application/json (got "text/csv")"#
            )
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
            #expect(try row(client, "a1")?["text"]?.string == "A1")
        }
    }

    @Test func unknownIdsAreNotFound() throws {
        try withServer(.inProcess) { client in
            let row = try patch(client, "/api/tables/t/items/zz", #"{"text": "Z"}"#)
            #expect(row.status == 404)
            #expect(try row.json["detail"]?.string == #"table "t" has no item "zz""#)
            let section = try patch(client, "/api/tables/t/section-ids/zz", #"{"header": "Z"}"#)
            #expect(section.status == 404)
            #expect(try section.json["detail"]?.string == #"table "t" has no section "zz""#)
            #expect(try patch(client, "/api/tables/nope/items/a1", "{}").status == 404)
            #expect(try patch(client, "/api/tables/t/items/a%20b", "{}").status == 400)
        }
    }

    @Test func patchesASectionsHeaderFooterAndIndexTitle() throws {
        try withServer(.inProcess) { client in
            let patched = try patch(
                client, "/api/tables/t/section-ids/b?animation=fade", #"{"footer": null, "indexTitle": "β"}"#)
            #expect(patched.status == 200)
            #expect(try patched.json["batch"]?["reloadSections"]?[0]?["at"]?.int == 1)
            #expect(try patched.json["batch"]?["animation"]?.string == "fade")
            let sections = try client.request(.GET, "/api/tables/t/sections").json["sections"]
            #expect(sections?[1]?["header"]?.string == "B")
            #expect(sections?[1]?["footer"] == .null)
            #expect(sections?[1]?["indexTitle"]?.string == "β")
            #expect(sections?[1]?["rowCount"]?.int == 2, "the rows stay")
        }
    }

    @Test func honoursIfMatchAndIdempotencyKey() throws {
        try withServer(.inProcess) { client in
            let stale = try patch(
                client, "/api/tables/t/items/a1", #"{"text": "x"}"#,
                headers: ["Content-Type": "application/merge-patch+json", "If-Match": "\"3\""])
            #expect(stale.status == 412)
            #expect(try row(client, "a1")?["text"]?.string == "A1")

            let keyed: HTTPHeaders = [
                "Content-Type": "application/merge-patch+json", "If-Match": "\"0\"", "Idempotency-Key": "p1",
            ]
            let first = try patch(client, "/api/tables/t/items/a1", #"{"text": "once"}"#, headers: keyed)
            #expect(first.status == 200)
            let again = try patch(client, "/api/tables/t/items/a1", #"{"text": "once"}"#, headers: keyed)
            #expect(again.status == 200)
            #expect(again.body == first.body)
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 1)
            let other = try patch(client, "/api/tables/t/items/a1", #"{"text": "twice"}"#, headers: keyed)
            #expect(other.status == 422, "the key with another patch")
        }
    }

    @Test func theLiveEventIsAReloadOfTheRow() throws {
        try withServer(.live) { client in
            let connection = try client.connect()
            defer { connection.close() }
            try connection.send("GET /api/tables/t/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try connection.readHead().status == 200)
            #expect(try patch(client, "/api/tables/t/items/b1", #"{"detail": "new"}"#).status == 200)
            let stream = String(
                decoding: connection.readStream(timeout: .seconds(10)) {
                    String(decoding: $0, as: UTF8.self).contains("id: 1\n")
                }, as: UTF8.self)
            let data = try #require(stream.split(separator: "\n").last { $0.hasPrefix("data: ") }).dropFirst(6)
            let batch = try JSONParser().parse(Array(data.utf8))["batch"]
            #expect(batch?["reloadRows"]?[0]?["at"] == .array([.integer(1), .integer(1)]))
            #expect(batch?["reloadRows"]?[0]?["row"]?["detail"]?.string == "new")
            #expect(batch?["insertRows"] == nil && batch?["deleteRows"] == nil)
        }
    }
}
