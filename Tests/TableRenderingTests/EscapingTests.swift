import JSON
import TableModel
import TableRendering
import Testing

@Suite struct EscapingTests {
    let renderer: TableRenderer
    init() throws { renderer = try makeRenderer() }

    static let hostile = [
        "<script>alert(1)</script>",
        #"" onmouseover="alert(1)"#,
        "' onfocus='alert(1)",
        "&amp; & &lt;",
        // A quote followed by a combining mark is one Character: escaping must not miss it.
        "\"\u{301} autofocus onfocus=alert(1) x=\"",
        "<\u{338}img src=x onerror=alert(1)>",
    ]

    private func hostileTable(_ text: String) -> Table {
        let row = Row(
            id: text, style: .subtitle, text: text, detail: text, image: "/img?q=" + text,
            accessory: .detailDisclosureButton, deleteTitle: text, template: text,
            link: "/link?q=" + text, detailLink: "/detail?q=" + text)
        let custom = Row(
            id: text + "custom", style: .custom, text: text, template: "product",
            fields: JSONObject([
                JSONMember("name", .string(text)), JSONMember("summary", .string(text)),
                JSONMember("badge", .string(text)), JSONMember("price", .string(text)),
            ]))
        return Table(
            id: text, title: text, header: text, footer: text,
            sections: [Section(id: text, header: text, footer: text, indexTitle: text, rows: [row, custom])])
    }

    @Test(arguments: hostile)
    func hostileTextNeverBreaksOut(text: String) throws {
        let table = hostileTable(text)
        let outputs = [
            renderer.page(table), renderer.page(table, style: .grouped), renderer.section(table, at: 0),
            renderer.rows(table, section: 0, range: 0..<2), renderer.row(table, at: TableIndexPath(0, 0)),
            renderer.row(table, at: TableIndexPath(0, 1)), renderer.index([table]),
            renderer.errorPage(status: 404, title: text, detail: text),
        ]
        let rawQuoteWithMark = "\"\u{301}"
        let rawLessThanWithMark = "<\u{338}"
        for html in outputs {
            #expect(!html.contains("<script>"))
            #expect(!html.contains("<img src"))
            #expect(!html.contains(rawQuoteWithMark))
            #expect(!html.contains("'"))
            #expect(!html.contains("& "))
            #expect(!html.contains(rawLessThanWithMark))
            for name in ["tr", "table", "tbody", "a", "img", "button", "span", "body", "li"] {
                for tag in HTMLProbe.startTags(name, in: html) {
                    #expect(tag.name == name, "a \(name) tag does not parse: \(html)")
                    #expect(!tag.attributeNames.contains { $0.hasPrefix("on") || $0 == "autofocus" })
                }
            }
        }
        let page = renderer.page(table)
        #expect(HTMLProbe.text(ofClass: "text", in: page) == [text, text])
        #expect(HTMLProbe.text(ofClass: "detail", in: page) == [text, text])
        #expect(HTMLProbe.text(ofClass: "badge", in: page) == [text])
        let cell = try #require(Fixtures.cells(page).first)
        #expect(cell.attributes["data-id"].map(HTMLProbe.unescape) == text)
        #expect(cell.attributes["data-delete-title"].map(HTMLProbe.unescape) == text)
        let tableTag = try #require(HTMLProbe.startTags("table", in: page).first)
        #expect(tableTag.attributes["data-table"].map(HTMLProbe.unescape) == text)
        #expect(tableTag.attributes["aria-label"].map(HTMLProbe.unescape) == text)
    }

    static let unsafeURLs = [
        "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
        "java\nscript:alert(1)", "vbscript:msgbox(1)", "data:text/html,<script>alert(1)</script>",
        "//evil.example/x", "/\\evil.example", "\\\\evil.example", "http:evil", "https:", "https://",
        "ftp://example.com/x", "mailto:a@example.com", "", " /x", "/x ", "x\u{0}y",
    ]

    @Test(arguments: unsafeURLs)
    func unsafeURLsAreNotWritten(url: String) throws {
        let row = Row(
            style: .subtitle, text: "Row", image: url, accessory: .detailButton, link: url, detailLink: url)
        let html = renderer.row(Fixtures.table(rows: [row]), at: TableIndexPath(0, 0))
        #expect(!html.contains("<img"))
        #expect(!html.contains("href="))
        #expect(html.contains(#"<button type="button" class="info-button""#))
        let cell = try #require(Fixtures.cells(html).first)
        #expect(!cell.has("has-image") && !cell.has("has-link"))
    }

    static let safeURLs = [
        "http://example.com/a", "HTTPS://example.com/a?b=1&c=2", "/public/flags/usa.svg", "/",
        "flags/usa.svg", "./x", "../x", "?offset=5", "#top", "/a:b", "x/y:z",
    ]

    @Test(arguments: safeURLs)
    func safeURLsAreWrittenEscaped(url: String) throws {
        let row = Row(text: "Row", image: url, accessory: .detailButton, link: url, detailLink: url)
        let html = renderer.row(Fixtures.table(rows: [row]), at: TableIndexPath(0, 0))
        let escaped = url.replacingOccurrences(of: "&", with: "&amp;")
        #expect(HTMLProbe.startTags("img", in: html).first?.attributes["src"] == escaped)
        #expect(HTMLProbe.startTags("a", in: html).map { $0.attributes["href"] } == [escaped, escaped])
    }

    @Test func tableIDIsPercentEncodedInLinks() {
        let table = Table(id: "a b/c", title: "T", sections: [Section(rows: [Row(text: "1"), Row(text: "2")])])
        #expect(renderer.page(table, rowLimit: 1).contains(#"href="/tables/a%20b%2Fc/sections/0?offset=1""#))
        #expect(renderer.index([table]).contains(#"href="/tables/a%20b%2Fc""#))
    }
}
