import JSON
import MicroHTTP
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// A view that names a field no row has, or a change feed asked for a view,
/// is a 400 that says what to ask instead — never an answer of nothing, or the
/// table's changes as if they were the view's (docs/API.md, "Views").
@Suite struct ViewNamingAPITests {
    static let table = Table(
        id: "c",
        sections: [
            Section(rows: [
                Row(id: "a", text: "A", fields: JSONObject([JSONMember("population", .integer(5))])),
                Row(id: "b", text: "B", fields: JSONObject([JSONMember("state", .string("CA"))])),
            ])
        ])

    @Test(arguments: [
        "/api/tables/c?filter%5Bfields.popul%5D%5Bgt%5D=1", "/api/tables/c?sort=fields.popul",
        "/api/tables/c?group=fields.popul&format=csv", "/api/tables/c/sections?sort=text,-fields.popul",
        "/tables/c?sort=fields.popul",
    ])
    func aFieldNoRowHasIs400NamingTheFieldsThereAre(path: String) throws {
        try withServer(.inProcess, tables: [Self.table]) { client in
            let response = try client.request(.GET, path)
            #expect(response.status == 400, "\(path)")
            if path.hasPrefix("/api") {
                #expect(
                    try response.json["detail"]?.string
                        == "no row of the table has fields.popul; its rows have fields.population, fields.state")
            }
        }
    }

    @Test func aFieldSomeRowsHaveIsAView() throws {
        try withServer(.inProcess, tables: [Self.table]) { client in
            let response = try client.request(.GET, "/api/tables/c?filter%5Bfields.state%5D%5Beq%5D=CA&format=csv")
            #expect(response.status == 200)
            #expect(response.text == "section,id,text,detail,state\r\n,b,B,,CA\r\n")
        }
        try withServer(.inProcess, tables: [Table(id: "e", sections: [Section()])]) { client in
            let status = try client.request(.GET, "/api/tables/e?sort=fields.any").status
            #expect(status == 200, "rows may be yet to come")
        }
    }

    @Test(arguments: ["q=a", "sort=bogus", "sort=text", "group=text", "filter%5Btext%5D%5Beq%5D=A"])
    func theChangeFeedOfAViewIs400NamingTheStream(parameters: String) throws {
        try withServer(.inProcess, tables: [Self.table]) { client in
            let response = try client.request(.GET, "/api/tables/c/changes?since=0&\(parameters)")
            #expect(response.status == 400)
            #expect(try response.json["detail"]?.string?.contains("…/events with the same parameters") == true)
            #expect(try client.request(.GET, "/api/tables/c/changes?since=0").status == 200)
        }
    }

    /// Found by an outside check: a search that matched nothing answered
    /// `404 table "c" has no section 0` where a list shows no results.
    @Test func aSearchWithNoResultsIsAnEmptyPage() throws {
        try withServer(.inProcess, tables: [Self.table]) { client in
            let page = try client.request(.GET, "/api/tables/c/sections/0/rows?q=nothing-like-it")
            #expect(page.status == 200)
            #expect(try page.json["total"]?.int == 0 && page.json["rows"]?.array?.isEmpty == true)
            #expect(try client.request(.GET, "/api/tables/c/sections/1/rows?q=nothing-like-it").status == 404)
            #expect(try client.request(.GET, "/api/tables/c/sections/1/rows").status == 404)
        }
    }
}
