import Foundation
import JSON
import MicroHTTP
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// `GET /tables/{t}/rows/{rowID}`, a row's detail page, and `table-id` with a
/// JSON body, which the index page's upload sends (docs/API.md, "Pages", "CSV").
@Suite struct RowDetailPageTests {
    static func citiesTable() -> Table {
        let fields = JSONObject([
            JSONMember("population", .integer(8_336_817)), JSONMember("note", .string("<b>big</b>")),
        ])
        return Table(
            id: "cities", title: "Fixture",
            sections: [
                Section(rows: [Row(id: "a0", text: "A0")]),
                Section(rows: [Row(id: "b0", text: "B0"), Row(id: "b1", text: "B1", fields: fields)]),
            ])
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func answersARowsFieldsAsAPage(_ transport: TestTransport) throws {
        try withServer(transport, tables: [Self.citiesTable()]) { client in
            let page = try client.request(.GET, "/tables/cities/rows/b1")
            #expect(page.status == 200)
            #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(page.headers["ETag"] == "\"0\"")
            #expect(page.text.contains(#"<a class="nav-back" href="/tables/cities#section-1-row-1">Fixture</a>"#))
            #expect(
                page.text.contains(#"<dt class="record-name">population</dt><dd class="record-value">8336817</dd>"#))
            #expect(page.text.contains("&lt;b&gt;big&lt;/b&gt;") && !page.text.contains("<b>big"))
            let again = try client.request(.GET, "/tables/cities/rows/b1", headers: ["If-None-Match": "\"0\""])
            #expect(again.status == 304)

            // The table's page links the row there.
            #expect(try client.request(.GET, "/tables/cities").text.contains(#"href="/tables/cities/rows/b1""#))

            let missing = try client.request(.GET, "/tables/cities/rows/zz")
            #expect(missing.status == 404)
            #expect(missing.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(missing.text.contains("has no item &quot;zz&quot;"))
            #expect(try client.request(.GET, "/tables/nope/rows/b1").status == 404)
            #expect(try client.request(.GET, "/tables/cities/rows/no%20id").status == 400)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func aJSONBodyIsMadeUnderTheTableIDGiven(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let document = try client.request(.GET, "/api/tables/t").text
            let created = try client.request(
                .POST, "/api/tables?table-id=copy", headers: jsonHeaders, body: body(document))
            #expect(created.status == 201)
            #expect(created.headers["Location"] == "/api/tables/copy")
            #expect(try client.request(.GET, "/api/tables/copy").status == 200)
            // The document's own id is left alone, and a bad id changes nothing.
            #expect(try client.request(.GET, "/api/tables/t").status == 200)
            let refused = try client.request(
                .POST, "/api/tables?table-id=no%20id", headers: jsonHeaders, body: body(document))
            #expect(refused.status == 400)
        }
    }
}
