import JSON
import MicroHTTP
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// Files of records through the API: a table remembers the mapping it was made
/// with, applies it to the same file sent again, and exports the file's own
/// columns (docs/API.md, "CSV"; docs/FORMAT.md, "source").
@Suite struct RecordsAPITests {
    static let airports =
        "iata,name,state,elev ft,code\r\nORD,O'Hare,IL,668,007\r\nJFK,Kennedy,NY,13,1\r\nMDW,Midway,IL,1.50,010\r\nLGA,La Guardia,NY,-0,2\r\n"
    static let csvHeaders: HTTPHeaders = ["Content-Type": "text/csv"]

    @Test(arguments: [TestTransport.inProcess, .live])
    func aRefreshOfTheSameFileKeepsTheTablesShape(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let created = try client.request(
                .POST, "/api/tables?table-id=airports&id=iata&text=name&section=state", headers: Self.csvHeaders,
                body: body(Self.airports))
            #expect(created.status == 201)
            let source = try created.json["source"]
            #expect(source?["id"]?.string == "iata" && source?["section"]?.string == "state")
            #expect(source?["columns"]?.array?.count == 5)

            let export = try client.request(.GET, "/api/tables/airports?format=csv")
            #expect(
                export.text
                    == "iata,name,state,elev ft,code\r\nORD,O'Hare,IL,668,007\r\nMDW,Midway,IL,1.50,010\r\nJFK,Kennedy,NY,13,1\r\nLGA,La Guardia,NY,-0,2\r\n"
            )

            // The nightly refresh: the same file, no mapping named, one cell changed.
            let refreshed = Self.airports.replacingOccurrences(of: "Kennedy", with: "John F. Kennedy")
            let put = try client.request(
                .PUT, "/api/tables/airports", headers: Self.csvHeaders, body: body(refreshed))
            #expect(put.status == 200)
            let changes = try put.json["changes"]?.array ?? []
            #expect(changes.count == 1)
            #expect(changes.first?["batch"]?["reloadRows"]?.array?.count == 1, "only the row that changed")
            let sections = try client.request(.GET, "/api/tables/airports/sections").json["sections"]?.array
            #expect(sections?.map { $0["header"]?.string } == ["IL", "NY"], "still a section per state")

            let again = try client.request(
                .PUT, "/api/tables/airports", headers: Self.csvHeaders, body: body(refreshed))
            #expect(try again.json["changes"]?.array?.isEmpty == true, "the same file twice changes nothing")
        }
    }

    @Test func aMappingNamedByAPutIsRememberedInstead() throws {
        try withServer(.inProcess) { client in
            _ = try client.request(
                .POST, "/api/tables?table-id=a&id=iata&text=name&section=state", headers: Self.csvHeaders,
                body: body(Self.airports))
            let put = try client.request(
                .PUT, "/api/tables/a?id=iata&text=name", headers: Self.csvHeaders, body: body(Self.airports))
            #expect(put.status == 200)
            let table = try client.request(.GET, "/api/tables/a").json
            #expect(table["source"]?["section"] == .null)
            #expect(table["sections"]?.array?.count == 1)
        }
    }

    /// Found by an outside check: a JSON-made table's export sent back made its
    /// rows' style `default` into `subtitle`, a new version.
    @Test func theExportOfAJSONMadeTableSentBackChangesNothing() throws {
        let table = Table(
            id: "j", title: "J",
            sections: [
                Section(
                    id: "s", header: "S",
                    rows: [
                        Row(id: "r1", style: .value1, text: "One", detail: "1", accessory: .checkmark),
                        Row(id: "r2", text: "Two", detail: "2", fields: JSONObject([JSONMember("n", .integer(5))])),
                    ])
            ])
        try withServer(.inProcess, tables: [table]) { client in
            let export = try client.request(.GET, "/api/tables/j?format=csv").text
            let put = try client.request(.PUT, "/api/tables/j", headers: Self.csvHeaders, body: body(export))
            #expect(put.status == 200)
            #expect(try put.json["changes"]?.array?.isEmpty == true, "\(put.text)")
            #expect(try client.request(.GET, "/api/tables/j").json["source"] == nil, "no mapping was named")
        }
    }

    @Test func aJSONArrayOfRecordsMakesATable() throws {
        try withServer(.inProcess) { client in
            let records = #"[{"name": "Ann", "age": 31, "zip": "01234"}, {"name": "Bob", "age": 1.50}]"#
            let created = try client.request(
                .POST, "/api/tables?table-id=people", headers: jsonHeaders, body: body(records))
            #expect(created.status == 201)
            #expect(try created.json["source"]?["format"]?.string == "json")
            #expect(
                try client.request(.GET, "/api/tables/people?format=csv").text
                    == "name,age,zip\r\nAnn,31,01234\r\nBob,1.50,\r\n")
            let missing = try client.request(.POST, "/api/tables", headers: jsonHeaders, body: body(records))
            #expect(missing.status == 400)
            #expect(
                try missing.json["detail"]?.string
                    == "query parameter table-id names the table an array of records makes")
        }
    }

    @Test func aHeaderOfTensOfThousandsOfColumnsIsRefusedAtOnce() throws {
        try withServer(.inProcess) { client in
            let wide = String(repeating: ",", count: 40_000) + "\n"
            let response = try client.request(
                .POST, "/api/tables?table-id=c", headers: Self.csvHeaders, body: body(wide))
            #expect(response.status == 422)
            #expect(try response.json["errors"]?[0]?["message"]?.string == "40001 columns; a file holds at most 2000")
            #expect(try client.request(.GET, "/api/tables/c").status == 404)
        }
    }

    @Test func aLatin1FileIsReadWithItsEncoding() throws {
        try withServer(.inProcess) { client in
            let bytes: [UInt8] = Array("name;price\n".utf8) + [0x43, 0x61, 0x66, 0xE9] + Array(";1,5\n".utf8)
            let created = try client.request(
                .POST, "/api/tables?table-id=l&encoding=latin-1", headers: Self.csvHeaders, body: bytes)
            #expect(created.status == 201)
            #expect(try client.request(.GET, "/api/tables/l?format=csv").text == "name,price\r\nCafé,\"1,5\"\r\n")
            let bad = try client.request(
                .POST, "/api/tables?table-id=m&encoding=ebcdic", headers: Self.csvHeaders, body: bytes)
            #expect(bad.status == 400)
        }
    }
}
