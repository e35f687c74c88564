import MicroHTTP
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// A table's page showing a view (docs/API.md, "Views"): the search bar as a
/// GET form, "No Results", no section index while searching, and the view kept
/// by the page's links, fragments and section pages.
@Suite struct ViewPageTests {
    @Test(arguments: [TestTransport.inProcess, .live])
    func thePageHasASearchBarThatWorksWithoutJavaScript(_ transport: TestTransport) throws {
        try withServer(transport, tables: [citiesTable()]) { client in
            let plain = try client.request(.GET, "/tables/c").text
            #expect(plain.contains(#"<form class="search-bar" role="search" action="/tables/c" method="get">"#))
            #expect(plain.contains(#"<input type="search" name="q" value="""#))
            #expect(plain.contains(#"data-view="""#))

            let page = try client.request(.GET, "/tables/c?q=SAN&sort=-fields.population&style=grouped")
            #expect(page.status == 200)
            #expect(page.headers["Content-Location"] == "/tables/c?q=SAN&sort=-fields.population")
            let html = page.text
            #expect(html.contains(#"<form class="search-bar searching""#))
            #expect(html.contains(#"name="q" value="SAN""#))
            #expect(html.contains(#"<input type="hidden" name="sort" value="-fields.population">"#))
            #expect(html.contains(#"<input type="hidden" name="style" value="grouped">"#))
            #expect(html.contains(#"href="/tables/c?sort=-fields.population&amp;style=grouped">Cancel</a>"#))
            #expect(html.contains(#"data-view="q=SAN&amp;sort=-fields.population""#))
            #expect(html.contains(#"<a href="?q=SAN&amp;sort=-fields.population&amp;style=plain">"#))
            #expect(html.contains("San Francisco") && html.contains("San Antonio") && !html.contains("Seattle"))
            #expect(!html.contains("No Results"))
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func noResultsAndNoSectionIndexWhileSearching(_ transport: TestTransport) throws {
        try withServer(transport, tables: [citiesTable()]) { client in
            #expect(try client.request(.GET, "/tables/c").text.contains(#"class="section-index""#))
            let found = try client.request(.GET, "/tables/c?q=york").text
            #expect(!found.contains(#"class="section-index""#))
            #expect(found.contains("New York"))
            let none = try client.request(.GET, "/tables/c?q=atlantis").text
            // Where iOS draws it: in the empty list, below the table (and so in place of its rows).
            #expect(none.contains("</table>\n" + #"<p class="search-no-results" role="status">No Results</p>"#))
            #expect(try client.request(.GET, "/tables/c?sort=text").text.contains(#"class="section-index""#))
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func fragmentsAndSectionPagesShowTheView(_ transport: TestTransport) throws {
        try withServer(transport, tables: [citiesTable()]) { client in
            let fragment = try client.request(.GET, "/tables/c/sections/0/rows?offset=0&limit=1&q=san")
            #expect(fragment.text.contains("San Francisco"))
            #expect(fragment.text.contains(#"href="/tables/c/sections/0?offset=1&amp;q=san""#) == false)
            let first = try client.request(.GET, "/tables/c/sections/0/rows?offset=0&limit=1&sort=-text")
            #expect(first.text.contains("Seattle"))
            #expect(first.text.contains(#"href="/tables/c/sections/0?offset=1&amp;sort=-text""#))
            #expect(first.headers["ETag"]?.hasPrefix("\"0-v") == true)
            let sectionPage = try client.request(.GET, "/tables/c/sections/0?offset=1&sort=-text").text
            #expect(sectionPage.contains("San Francisco") && !sectionPage.contains("Seattle"))
            #expect(sectionPage.contains(#"href="/tables/c?sort=-text#section-0""#))
            let bad = try client.request(.GET, "/tables/c?group=nothing")
            #expect(bad.status == 400)
            #expect(bad.text.contains("query parameter group"))
        }
    }
}

/// A table's `defaultView` (docs/FORMAT.md, "Table") on its page, not on the API.
@Suite struct DefaultViewPageTests {
    @Test(arguments: [TestTransport.inProcess, .live])
    func thePageShowsTheDefaultViewUnlessTheURLSaysOtherwise(_ transport: TestTransport) throws {
        var cities = citiesTable()
        cities.defaultView = TableQuery(sort: [ViewSortKey(key: .text)], group: ViewSortKey(key: .detail))
        try withServer(transport, tables: [cities]) { client in
            let page = try client.request(.GET, "/tables/c")
            #expect(page.headers["Content-Location"] == "/tables/c?sort=text&group=detail")
            #expect(page.text.contains(#"<th scope="rowgroup">CA</th>"#))
            #expect(page.text.contains(#"<input type="hidden" name="group" value="detail">"#))
            let searched = try client.request(.GET, "/tables/c?q=san").text
            #expect(searched.contains(#"<th scope="rowgroup">TX</th>"#) && !searched.contains(">NY<"))
            let own = try client.request(.GET, "/tables/c?sort=&group=").text
            #expect(own.contains(#"<th scope="rowgroup">West</th>"#))
            let api = try client.request(.GET, "/api/tables/c")
            #expect(api.headers["Content-Location"] == nil)
            #expect(try api.json["sections"]?[0]?["header"]?.string == "West")
            #expect(try api.json["defaultView"]?["group"]?.string == "detail")
        }
    }
}
