import JSON
import MicroHTTP
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// A table of cities, with states and populations in `fields`, for views.
func citiesTable() -> Table {
    func city(_ id: String, _ name: String, _ state: String, _ population: Int) -> Row {
        Row(
            id: id, style: .subtitle, text: name, detail: state,
            fields: JSONObject([JSONMember("state", .string(state)), JSONMember("population", .integer(population))]))
    }
    return Table(
        id: "c", title: "Cities",
        sections: [
            Section(
                id: "west", header: "West", indexTitle: "W",
                rows: [
                    city("la", "Los Angeles", "CA", 3_898_747), city("sf", "San Francisco", "CA", 873_965),
                    city("sea", "Seattle", "WA", 737_015),
                ]),
            Section(id: "south", header: "South", indexTitle: "S", rows: [city("sa", "San Antonio", "TX", 1_434_625)]),
            Section(id: "east", header: "East", indexTitle: "E", rows: [city("ny", "New York", "NY", 8_804_190)]),
        ])
}

/// Views by query parameters on every read (docs/API.md, "Views"), over both transports.
@Suite struct ViewAPITests {
    static func rowIDs(_ json: JSONValue) -> [[String]] {
        (json["sections"]?.array ?? []).map { section in (section["rows"]?.array ?? []).compactMap { $0["id"]?.string }
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func aViewOfTheTable(_ transport: TestTransport) throws {
        try withServer(transport, tables: [citiesTable()]) { client in
            let response = try client.request(.GET, "/api/tables/c?q=SAN&sort=-fields.population")
            #expect(response.status == 200)
            #expect(Self.rowIDs(try response.json) == [["sf"], ["sa"]])
            #expect(try response.json["title"]?.string == "Cities")
            #expect(response.headers["Content-Location"] == "/api/tables/c?q=SAN&sort=-fields.population")
            let etag = try #require(response.headers["ETag"])
            #expect(etag.hasPrefix("\"0-v"))
            #expect(
                try client.request(
                    .GET, "/api/tables/c?sort=-fields.population&q=SAN", headers: ["If-None-Match": etag]
                ).status == 304)
            #expect(try client.request(.GET, "/api/tables/c?q=sa", headers: ["If-None-Match": etag]).status == 200)
            #expect(try client.request(.GET, "/api/tables/c", headers: ["If-None-Match": etag]).status == 200)

            let grouped = try client.request(.GET, "/api/tables/c/sections?group=detail")
            let headers = try grouped.json["sections"]?.array?.map { $0["header"]?.string }
            #expect(headers == ["CA", "NY", "TX", "WA"])
            #expect(grouped.headers["Content-Location"] == "/api/tables/c/sections?group=detail")

            let filtered = try client.request(
                .GET, "/api/tables/c/sections/0/rows?filter%5Bfields.population%5D%5Bgt%5D=800000&limit=1")
            #expect(try filtered.json["total"]?.int == 2)
            #expect(try filtered.json["rows"]?[0]?["id"]?.string == "la")
            let rows = "/api/tables/c/sections/0/rows"
            let view = "&limit=1&filter[fields.population][gt]=800000"
            #expect(
                filtered.headers["Link"]
                    == "<\(rows)?offset=0\(view)>; rel=\"first\", <\(rows)?offset=1\(view)>; rel=\"next\", "
                    + "<\(rows)?offset=1\(view)>; rel=\"last\"")

            let cell = try client.request(.GET, "/api/tables/c/sections/0/rows/0?filter%5Bdetail%5D=ny")
            #expect(try cell.json["id"]?.string == "ny")
            #expect(try client.request(.GET, "/api/tables/c/sections/1/rows/0?filter%5Bdetail%5D=ny").status == 404)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func anItemIsWhereTheViewHasIt(_ transport: TestTransport) throws {
        try withServer(transport, tables: [citiesTable()]) { client in
            // Grouped by state, most populous first: TX is the third group.
            let item = try client.request(.GET, "/api/tables/c/items/sa?group=detail&sort=-fields.population")
            #expect(item.status == 200)
            #expect(try item.json["at"]?.array?.compactMap(\.int) == [2, 0])
            #expect(try item.json["row"]?["id"]?.string == "sa")
            #expect(
                item.headers["Content-Location"] == "/api/tables/c/items/sa?sort=-fields.population&group=detail")
            let etag = try #require(item.headers["ETag"])
            #expect(
                try client.request(
                    .GET, "/api/tables/c/items/sa?group=detail&sort=-fields.population",
                    headers: ["If-None-Match": etag]
                ).status == 304)
            // The table's own index path without the view's parameters.
            #expect(try client.request(.GET, "/api/tables/c/items/sa").json["at"]?.array?.compactMap(\.int) == [1, 0])
            // A row the view leaves out, and a row the table does not have.
            let left = try client.request(.GET, "/api/tables/c/items/sea?q=san")
            #expect(left.status == 404)
            #expect(try left.json["detail"]?.string?.contains("the view leaves out item \"sea\"") == true)
            let missing = try client.request(.GET, "/api/tables/c/items/nowhere?q=san")
            #expect(try missing.json["detail"]?.string == "table \"c\" has no item \"nowhere\"")
            #expect(try client.request(.GET, "/api/tables/c/items/sa?sort=nothing").status == 400)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func theViewTagFollowsTheTable(_ transport: TestTransport) throws {
        try withServer(transport, tables: [citiesTable()]) { client in
            let before = try client.request(.GET, "/api/tables/c?q=new").headers["ETag"]
            let edit = try client.request(
                .PUT, "/api/tables/c/items/la", headers: ["Content-Type": "application/json"],
                body: body(#"{"text": "Newark"}"#))
            #expect(edit.status == 200)
            let after = try client.request(.GET, "/api/tables/c?q=new")
            #expect(after.headers["ETag"] != before)
            #expect(after.headers["ETag"]?.hasPrefix("\"1-v") == true)
            #expect(Self.rowIDs(try after.json) == [["la"], ["ny"]])
        }
    }

    @Test(
        arguments: [
            ("sort=population", "query parameter sort"),
            ("group=-", "query parameter group"),
            ("filter%5Bpop%5D=1", "query parameter filter[pop]"),
            ("filter%5Btext%5D%5Blike%5D=a", "eq, ne, lt, lte, gt, gte, prefix"),
            ("filter=a", "filter[KEY]"),
        ])
    func badParametersAre400(query: String, named: String) throws {
        try withServer(.inProcess, tables: [citiesTable()]) { client in
            for path in [
                "/api/tables/c", "/api/tables/c/sections", "/api/tables/c/sections/0/rows",
                "/api/tables/c/sections/0/rows/0",
            ] {
                let response = try client.request(.GET, "\(path)?\(query)")
                #expect(response.status == 400, "\(path)")
                #expect(response.headers["Content-Type"] == "application/problem+json")
                #expect(try response.json["type"]?.string == "bad-view-parameter")
                #expect(try response.json["detail"]?.string?.contains(named) == true, "\(path)")
            }
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func indexEditsThroughAViewAre409(_ transport: TestTransport) throws {
        try withServer(transport, tables: [citiesTable()]) { client in
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            let attempts: [(HTTPMethod, String, String)] = [
                (.DELETE, "/api/tables/c/sections/0/rows/0?q=san", ""),
                (.POST, "/api/tables/c/batch?sort=text", #"{"deleteRows": [[0, 0]]}"#),
                (.PUT, "/api/tables/c/sections/0?group=detail", #"{"header": "X"}"#),
            ]
            for (method, path, text) in attempts {
                let response = try client.request(method, path, headers: json, body: body(text))
                #expect(response.status == 409, "\(path)")
                #expect(try response.json["type"]?.string == "edit-through-view")
                #expect(try response.json["detail"]?.string?.contains("/api/tables/c/items/{id}") == true)
            }
            #expect(try client.request(.GET, "/api/tables/c").json["version"]?.int == 0)
            let byID = try client.request(.DELETE, "/api/tables/c/items/sf?q=san", headers: json)
            #expect(byID.status == 200)
        }
    }
}
