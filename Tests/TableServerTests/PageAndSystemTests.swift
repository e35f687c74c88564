import Foundation
import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// HTML pages, static files, health, metrics and the OpenAPI document.
@Suite struct PageAndSystemTests {
    @Test(arguments: [TestTransport.inProcess, .live])
    func rendersPages(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let index = try client.request(.GET, "/")
            #expect(index.status == 200)
            #expect(index.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(index.text.contains("href=\"/tables/t\""))

            let page = try client.request(.GET, "/tables/t")
            #expect(page.status == 200)
            #expect(page.headers["ETag"] == "\"0\"")
            #expect(page.headers["Transfer-Encoding"] == "chunked")
            #expect(page.text.contains(#"<table class="table-view plain" data-table="t" data-version="0""#))
            #expect(page.text.contains(#"<th scope="rowgroup""#))

            let grouped = try client.request(.GET, "/tables/t?style=insetGrouped")
            #expect(grouped.text.contains(#"class="table-view insetGrouped""#))
            #expect(try client.request(.GET, "/tables/t?style=fancy").status == 400)

            let missing = try client.request(.GET, "/tables/nope")
            #expect(missing.status == 404)
            #expect(missing.headers["Content-Type"] == "text/html; charset=utf-8")

            let fragment = try client.request(.GET, "/tables/t/sections/0/rows?offset=5&limit=2")
            #expect(fragment.status == 200)
            #expect(fragment.text.contains("data-id=\"a5\""))
            #expect(fragment.text.contains("data-id=\"a6\""))
            #expect(!fragment.text.contains("data-id=\"a4\""))

            // Without JavaScript "Show N more rows" opens the next rows as a whole page.
            let next = try client.request(.GET, "/tables/t/sections/0?offset=4&limit=2")
            #expect(next.status == 200)
            #expect(next.text.hasPrefix("<!doctype html>"))
            #expect(next.text.contains("<title>Fixture · WebTableView</title>"))
            #expect(next.text.contains("data-id=\"a4\"") && next.text.contains("data-id=\"a5\""))
            #expect(!next.text.contains("data-id=\"a3\"") && !next.text.contains("data-id=\"a6\""))
            #expect(next.text.contains("Rows 5–6 of 7"))
            #expect(next.text.contains(#"<a href="/tables/t/sections/0?offset=6">Show 1 more row</a>"#))
            let last = try client.request(.GET, "/tables/t/sections/0?offset=6")
            #expect(last.text.contains("Row 7 of 7") && !last.text.contains(#"class="more""#))
            #expect(try client.request(.GET, "/tables/t/sections/9?offset=5").status == 404)
            #expect(try client.request(.GET, "/tables/t/sections/0?offset=-1").status == 400)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func escapesHostileText(_ transport: TestTransport) throws {
        let hostile = #"<script>alert("x")</script>&'"#
        var table = fixtureTable(id: "evil")
        table.title = hostile
        try withServer(transport, tables: [table]) { client in
            let created = try client.request(
                .POST, "/api/tables/evil/sections/0/rows", headers: jsonHeaders,
                body: body(#"{"row": {"text": "<img src=x onerror=alert(1)>", "detail": "\"quoted\""}}"#))
            #expect(created.status == 200)
            for path in ["/", "/tables/evil"] {
                let text = try client.request(.GET, path).text
                #expect(!text.contains("<script>alert"), "\(path)")
                #expect(!text.contains("<img src=x"), "\(path)")
            }
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func healthMetricsAndFiles(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            #expect(try client.request(.GET, "/healthz").status == 200)
            let metrics = try client.request(.GET, "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("webtableview_rows 9"))
            #expect(metrics.text.contains("\nprocess_heap_in_use_bytes "))
            let css = try client.request(.GET, "/public/tableview.css")
            #expect(css.status == 200)
            #expect(css.headers["Content-Type"]?.hasPrefix("text/css") == true)
            for path in [
                "/public/../Package.swift", "/public/%2e%2e/Package.swift", "/public//etc/passwd", "/public/nope.css",
            ] {
                #expect(try client.request(.GET, path).status == 404, "\(path)")
            }
        }
    }

    /// Every route the server answers is described in the OpenAPI document, and
    /// every operation the document describes is a route.
    @Test func openAPIDocumentMatchesTheRoutes() throws {
        let server = try makeServer()
        let routes = Set(
            server.router.routes.map { route in
                "\(route.method.rawValue) \(route.pattern.replacingOccurrences(of: "...}", with: "}"))"
            })
        let document = try TestClient(router: server.router).request(.GET, "/api/openapi.json").json
        guard case .object(let paths) = document["paths"] else {
            Issue.record("no paths")
            return
        }
        var described = Set<String>()
        for member in paths.members {
            guard case .object(let operations) = member.value else { continue }
            for method in operations.keys where ["get", "put", "post", "patch", "delete"].contains(method) {
                described.insert("\(method.uppercased()) \(member.key)")
            }
        }
        #expect(routes.subtracting(described).sorted() == [], "routes missing from the document")
        #expect(described.subtracting(routes).sorted() == [], "documented operations with no route")
    }
}
