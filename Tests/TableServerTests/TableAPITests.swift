import JSON
import MicroHTTP
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// The read API and whole-table create, patch and delete, over both transports.
@Suite struct TableAPITests {
    @Test(arguments: [TestTransport.inProcess, .live])
    func listsTables(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let response = try client.request(.GET, "/api/tables")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
            let table = try #require(try response.json["tables"]?[0])
            #expect(table["id"]?.string == "t")
            #expect(table["sectionCount"]?.int == 2)
            #expect(table["rowCount"]?.int == 9)
            #expect(table["version"]?.int == 0)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func fetchesATableWithItsETag(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let response = try client.request(.GET, "/api/tables/t")
            #expect(response.status == 200)
            #expect(response.headers["ETag"] == "\"0\"")
            let json = try response.json
            #expect(json["style"]?.string == "plain")
            #expect(json["rowHeight"]?.int == 44)
            #expect(json["sections"]?[1]?["rows"]?[1]?["text"]?.string == "B1")
            #expect(json["sections"]?[1]?["rows"]?[1]?["accessory"]?.string == "none")

            let cached = try client.request(.GET, "/api/tables/t", headers: ["If-None-Match": "\"0\""])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)

            let head = try client.request(.HEAD, "/api/tables/t")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func unknownThingsAre404(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            for path in [
                "/api/tables/nope", "/api/tables/t/sections/2/rows", "/api/tables/t/sections/0/rows/7", "/api/nothing",
            ] {
                let response = try client.request(.GET, path)
                #expect(response.status == 404, "\(path)")
                #expect(response.headers["Content-Type"] == "application/problem+json", "\(path)")
            }
            let bad = try client.request(.GET, "/api/tables/t/sections/x/rows")
            #expect(bad.status == 400)
            let wrongMethod = try client.request(.PATCH, "/api/tables/t/sections")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.headers["Allow"]?.contains("GET") == true)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func pagesRows(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let page = try client.request(.GET, "/api/tables/t/sections/0/rows?offset=5&limit=10").json
            #expect(page["total"]?.int == 7)
            #expect(page["offset"]?.int == 5)
            #expect(page["limit"]?.int == 10)
            #expect(page["rows"]?.array?.compactMap { $0["text"]?.string } == ["A5", "A6"])
            // Every page links the first, previous, next and last pages (RFC 8288),
            // the last one too; prev and next only where there is such a page.
            func links(_ query: String) throws -> String? {
                try client.request(.GET, "/api/tables/t/sections/0/rows?\(query)").headers["Link"]
            }
            func link(_ offset: Int, _ limit: Int, _ relation: String) -> String {
                "</api/tables/t/sections/0/rows?offset=\(offset)&limit=\(limit)>; rel=\"\(relation)\""
            }
            let first = try client.request(.GET, "/api/tables/t/sections/0/rows?limit=3")
            #expect(try first.json["limit"]?.int == 3)
            #expect(
                first.headers["Link"]
                    == [link(0, 3, "first"), link(3, 3, "next"), link(6, 3, "last")].joined(separator: ", "))
            #expect(
                try links("offset=3&limit=3")
                    == [link(0, 3, "first"), link(0, 3, "prev"), link(6, 3, "next"), link(6, 3, "last")].joined(
                        separator: ", "))
            #expect(
                try links("offset=6&limit=3")
                    == [link(0, 3, "first"), link(3, 3, "prev"), link(6, 3, "last")].joined(separator: ", "))
            #expect(
                try links("offset=5&limit=2")
                    == [link(0, 2, "first"), link(3, 2, "prev"), link(5, 2, "last")].joined(separator: ", "))
            let whole = try client.request(.GET, "/api/tables/t/sections/0/rows")
            #expect(try whole.json["limit"]?.int == 100)
            #expect(whole.headers["Link"] == [link(0, 100, "first"), link(0, 100, "last")].joined(separator: ", "))
            #expect(try links("limit=0") == nil, "a page of no rows pages nothing")
            let beyond = try client.request(.GET, "/api/tables/t/sections/0/rows?offset=99")
            #expect(try beyond.json["rows"]?.array?.isEmpty == true)
            #expect(
                beyond.headers["Link"]
                    == [link(0, 100, "first"), link(0, 100, "prev"), link(0, 100, "last")].joined(separator: ", "))
            #expect(
                try links("offset=\(Int.max)&limit=3")
                    == [link(0, 3, "first"), link(6, 3, "prev"), link(6, 3, "last")].joined(separator: ", "))
            #expect(try client.request(.GET, "/api/tables/t/sections/0/rows?limit=1001").status == 400)
            #expect(try client.request(.GET, "/api/tables/t/sections/0/rows?offset=-1").status == 400)
            let row = try client.request(.GET, "/api/tables/t/sections/0/rows/3")
            #expect(try row.json["id"]?.string == "a3")
            let sections = try client.request(.GET, "/api/tables/t/sections").json
            #expect(sections["sections"]?[1]?["rowCount"]?.int == 2)
            #expect(sections["sections"]?[1]?["footer"]?.string == "End")
            #expect(sections["sections"]?[1]?["rows"] == nil)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func createsPatchesAndDeletes(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let created = try client.request(
                .POST, "/api/tables", headers: jsonHeaders,
                body: body(#"{"id": "new", "title": "New", "sections": [{"rows": [{"text": "one"}]}]}"#))
            #expect(created.status == 201)
            #expect(created.headers["Location"] == "/api/tables/new")
            #expect(try created.json["version"]?.int == 0)

            let again = try client.request(.POST, "/api/tables", headers: jsonHeaders, body: body(#"{"id": "new"}"#))
            #expect(again.status == 409)

            let patched = try client.request(
                .PATCH, "/api/tables/new", headers: jsonHeaders,
                body: body(#"{"style": "grouped", "title": "Renamed"}"#))
            #expect(patched.status == 200)
            #expect(try patched.json["style"]?.string == "grouped")
            #expect(try patched.json["version"]?.int == 1)
            #expect(patched.headers["ETag"] == "\"1\"")

            let stale = try client.request(
                .DELETE, "/api/tables/new", headers: ["If-Match": "\"0\""])
            #expect(stale.status == 412)
            let deleted = try client.request(.DELETE, "/api/tables/new", headers: ["If-Match": "\"1\""])
            #expect(deleted.status == 204)
            #expect(try client.request(.GET, "/api/tables/new").status == 404)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func refusesBadBodies(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let malformed = try client.request(.POST, "/api/tables", headers: jsonHeaders, body: body(#"{"id": "x",}"#))
            #expect(malformed.status == 400)
            #expect(try malformed.json["type"]?.string == "malformed-json")

            let form = try client.request(
                .POST, "/api/tables", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body("id=x")
            )
            #expect(form.status == 415)

            let invalid = try client.request(
                .POST, "/api/tables", headers: jsonHeaders,
                body: body(#"{"id": "x", "sections": [{"rows": [{"text": "a"}, {"accessory": "arrow", "txt": 1}]}]}"#))
            #expect(invalid.status == 422)
            let errors = try #require(try invalid.json["errors"]?.array)
            let paths = errors.compactMap { $0["path"]?.string }
            #expect(paths.contains("$.sections[0].rows[1].accessory"))
            #expect(errors.contains { $0["message"]?.string == "unknown field \"txt\"" })
            #expect(try client.request(.GET, "/api/tables/x").status == 404)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func sendsALargeTableInPiecesAndASmallOneWhole(_ transport: TestTransport) throws {
        let large = Table(
            id: "large",
            sections: [
                Section(id: "a", rows: (0..<2500).map { Row(id: "a\($0)", text: "A \($0) <b>") }),
                Section(id: "b"),
                Section(id: "c", rows: (0..<700).map { Row(id: "c\($0)") }),
            ])
        try withServer(transport, tables: [fixtureTable(), large]) { client in
            let response = try client.request(.GET, "/api/tables/large")
            #expect(response.status == 200)
            #expect(response.headers["Transfer-Encoding"] == "chunked")
            #expect(response.headers["ETag"] == "\"0\"")
            #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
            #expect(
                response.body == large.jsonBytes + Array("\n".utf8),
                "the document, then the line feed every JSON answer ends with")
            let document = try response.json
            #expect(document["sections"]?[0]?["rows"]?.array?.count == 2500)
            #expect(document["sections"]?[2]?["rows"]?[699]?["id"]?.string == "c699")
            #expect(try client.request(.GET, "/api/tables/large", headers: ["If-None-Match": "\"0\""]).status == 304)

            let small = try client.request(.GET, "/api/tables/t")
            #expect(small.headers["Transfer-Encoding"] == nil)
            #expect(small.headers["Content-Length"] == String(small.body.count))
        }
    }
}
