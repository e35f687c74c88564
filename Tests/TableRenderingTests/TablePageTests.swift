import TableModel
import TableRendering
import Testing

@Suite struct TablePageTests {
    let renderer: TableRenderer
    init() throws { renderer = try makeRenderer() }

    private func countries(style: TableStyle = .grouped) -> Table {
        Table(
            id: "countries", title: "Countries", style: style, header: "Table header", footer: "Table footer",
            version: 3,
            sections: [
                Section(
                    id: "uk", header: "United Kingdom", footer: "Two of four.", indexTitle: "U",
                    rows: [Row(id: "england", text: "England"), Row(id: "scotland", text: "Scotland")]),
                Section(header: nil, indexTitle: "O", rows: [Row(text: "France")]),
            ])
    }

    @Test func pageIsACompleteDocument() {
        let html = renderer.page(countries())
        #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en\">"))
        #expect(
            html.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">"#))
        #expect(html.contains("<title>Countries · WebTableView</title>"))
        #expect(html.contains(#"<link rel="stylesheet" href="/public/tableview.css">"#))
        #expect(html.contains(#"<script type="module" src="/public/tableview.js"></script>"#))
        #expect(html.contains(#"<a class="nav-back" href="/">Tables</a>"#))
        #expect(html.contains(#"<h1 class="nav-title">Countries</h1>"#))
        #expect(html.hasSuffix("</html>\n"))
    }

    @Test func theNavigationBarOffersTheTableAsCSV() {
        let export =
            #"<a class="nav-export" href="/api/tables/countries?format=csv" download title="Export as CSV" aria-label="Export as CSV"></a>"#
        #expect(
            renderer.page(countries()).contains(#"<div class="nav-trailing" data-nav-actions>"# + export + "</div>"))
        #expect(renderer.sectionPage(countries(), section: 0, range: 0..<1).contains(export))
        #expect(!renderer.index([countries()]).contains("nav-export"), "the list of tables has nothing to export")
        let pieces = renderer.pagePieces(countries()).reduce(into: [UInt8]()) { $0 += $1 }
        #expect(String(decoding: pieces, as: UTF8.self).contains(export), "the page sent in pieces too")
    }

    @Test(arguments: TableStyle.allCases)
    func everyTableStyle(style: TableStyle) throws {
        let html = renderer.page(countries(style: style))
        let table = try #require(HTMLProbe.startTags("table", in: html).first)
        #expect(table.attributes["class"] == "table-view \(style.rawValue)")
        #expect(table.attributes["data-table"] == "countries")
        #expect(table.attributes["data-version"] == "3")
        #expect(table.attributeNames.prefix(3) == ["class", "data-table", "data-version"])
        #expect(html.contains(#"<body class="table-page \#(style.rawValue)">"#))
        #expect(html.contains(#"<div class="table-container \#(style.rawValue)">"#))
    }

    @Test(arguments: TableStyle.allCases)
    func styleOverride(style: TableStyle) throws {
        let html = renderer.page(countries(style: .grouped), style: style)
        let table = try #require(HTMLProbe.startTags("table", in: html).first)
        #expect(table.attributes["class"] == "table-view \(style.rawValue)")
        #expect(html.contains(#"<a href="?style=\#(style.rawValue)" class="current" aria-current="page">"#))
        #expect(HTMLProbe.startTags("a", in: html).filter { $0.attributes["aria-current"] != nil }.count == 1)
    }

    @Test func sectionsHeadersAndFooters() {
        let html = renderer.page(countries())
        #expect(
            html.contains(
                #"<tbody class="section" data-section="0" id="section-0" data-section-id="uk">"#
                    + "\n" + #"<tr class="section-header"><th scope="rowgroup">United Kingdom</th></tr>"#))
        #expect(html.contains(#"<tr class="section-footer"><td>Two of four.</td></tr>"#))
        // The second section has no header, no id and no footer.
        #expect(html.contains(#"<tbody class="section" data-section="1" id="section-1">"# + "\n<tr class=\"cell "))
        #expect(html.components(separatedBy: "<th scope=\"rowgroup\">").count == 2)
        #expect(html.components(separatedBy: "<tr class=\"section-footer\">").count == 2)
        #expect(html.components(separatedBy: "</tbody>").count == 3)
    }

    @Test func tableHeaderAndFooter() {
        let html = renderer.page(countries())
        #expect(html.contains(#"<thead><tr class="table-header"><td>Table header</td></tr></thead>"#))
        #expect(html.contains(#"<tfoot><tr class="table-footer"><td>Table footer</td></tr></tfoot>"#))
        var bare = countries()
        bare.header = nil
        bare.footer = nil
        let plain = renderer.page(bare)
        #expect(!plain.contains("<thead"))
        #expect(!plain.contains("<tfoot"))
    }

    @Test func sectionIndexStripInPlainStyleOnly() {
        let plain = renderer.page(countries(style: .plain))
        #expect(
            plain.contains(
                ##"<nav class="section-index" aria-label="Section index"><a href="#section-0">U</a><a href="#section-1">O</a></nav>"##
            ))
        for style in [TableStyle.grouped, .insetGrouped] {
            #expect(!renderer.page(countries(style: .plain), style: style).contains("section-index"))
        }
        let untitled = Table(
            id: "t", sections: [Section(header: "A", rows: [Row(text: "a")]), Section(header: "B", rows: [])])
        #expect(!renderer.page(untitled).contains("section-index"))
    }

    @Test func repeatedIndexTitlesJumpToTheFirstSection() {
        let table = Table(
            id: "t",
            sections: [
                Section(header: "Nebraska", indexTitle: "N", rows: []),
                Section(header: "Nevada", indexTitle: "N", rows: []),
                Section(header: "Ohio", indexTitle: "O", rows: []),
            ])
        let html = renderer.page(table)
        #expect(html.contains(##"<a href="#section-0">N</a><a href="#section-2">O</a></nav>"##))
    }

    @Test func emptyTable() throws {
        let html = renderer.page(Table(id: "empty"))
        #expect(html.contains(#"<table class="table-view plain" data-table="empty" data-version="0""#))
        #expect(!html.contains("<tbody"))
        #expect(html.contains("<title>empty · WebTableView</title>"))
    }

    @Test func indexListsEveryTable() throws {
        let html = renderer.index([countries(), Table(id: "us-cities", title: "US Cities", style: .plain)])
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<title>Tables · WebTableView</title>"))
        #expect(!html.contains("nav-back"))
        #expect(html.contains("2 tables"))
        #expect(
            html.contains(
                #"<a href="/tables/countries"><span class="labels"><span class="text">Countries</span><span class="detail">Grouped · 2 sections · 3 rows</span>"#
            ))
        #expect(
            html.contains(
                #"<a href="/tables/us-cities"><span class="labels"><span class="text">US Cities</span><span class="detail">Plain · 0 sections · 0 rows</span>"#
            ))
        #expect(!html.contains("No tables yet"))
        #expect(renderer.index([]).contains("No tables yet"))
    }

    @Test func errorPage() {
        let html = renderer.errorPage(status: 404, title: "No such table", detail: "There is no table <nope>.")
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<title>No such table · WebTableView</title>"))
        #expect(html.contains(#"<p class="error-status">404</p>"#))
        #expect(html.contains(#"<p class="error-detail">There is no table &lt;nope&gt;.</p>"#))
        #expect(html.contains(#"<a href="/">All tables</a>"#))
    }
}
