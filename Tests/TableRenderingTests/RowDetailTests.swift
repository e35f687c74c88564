import JSON
import TableModel
import TableRendering
import Testing

/// Rows with `fields` in the list (their first field as the secondary label, a
/// link to their detail page) and the detail page itself (docs/API.md, "Pages";
/// docs/FORMAT.md, "The HTML").
@Suite struct RowDetailTests {
    let renderer: TableRenderer
    init() throws { renderer = try makeRenderer() }

    static let cityFields = JSONObject([
        JSONMember("population", .integer(8_336_817)),
        JSONMember("area", .double(783.8)),
        JSONMember("note", .string("Big <apple> & \"more\"")),
        JSONMember("capital", .bool(false)),
        JSONMember("boroughs", .array([.string("Bronx"), .integer(5)])),
        JSONMember("mayor", .object(JSONObject([JSONMember("name", .string("A"))]))),
        JSONMember("nickname", .null),
    ])

    private func cell(_ row: Row, tableID: String = "t") throws -> (tag: StartTag, html: String) {
        var table = Fixtures.table(rows: [row])
        table.id = tableID
        let html = renderer.row(table, at: TableIndexPath(0, 0))
        return (try #require(Fixtures.cells(html).first), html)
    }

    @Test func aRowWithFieldsShowsItsFirstFieldAndOpensItsDetailPage() throws {
        let (tag, html) = try cell(Row(id: "nyc", text: "New York", fields: Self.cityFields), tableID: "us cities")
        #expect(tag.has("style-subtitle"))
        #expect(tag.has("accessory-disclosureIndicator"))
        #expect(tag.has("has-link"))
        #expect(HTMLProbe.text(ofClass: "text", in: html) == ["New York"])
        #expect(HTMLProbe.text(ofClass: "detail", in: html) == ["8336817"])
        let link = try #require(HTMLProbe.startTags("a", in: html).first { $0.has("cell-link") })
        #expect(link.attributes["href"] == "/tables/us%20cities/rows/nyc")
        #expect(html.contains("<span class=\"chevron\" aria-hidden=\"true\">"))
    }

    @Test func aRowsOwnDetailLinkAndAccessoryWin() throws {
        let row = Row(
            id: "nyc", style: .value1, text: "New York", detail: "NY", accessory: .checkmark,
            fields: Self.cityFields, link: "https://example.com/nyc")
        let (tag, html) = try cell(row)
        #expect(tag.has("style-value1") && tag.has("accessory-checkmark"))
        #expect(HTMLProbe.text(ofClass: "detail", in: html) == ["NY"])
        let link = try #require(HTMLProbe.startTags("a", in: html).first { $0.has("cell-link") })
        #expect(link.attributes["href"] == "https://example.com/nyc")
    }

    @Test func aRowWithoutIDHasNoDetailPage() throws {
        let (tag, html) = try cell(Row(text: "Nowhere", fields: JSONObject([JSONMember("note", .string("<b>"))])))
        #expect(tag.has("style-subtitle") && tag.has("accessory-none") && !tag.has("has-link"))
        #expect(HTMLProbe.text(ofClass: "detail", in: html) == ["<b>"])
        #expect(!html.contains("<b>"))
        #expect(HTMLProbe.startTags("a", in: html).isEmpty)
    }

    @Test func rowsWithoutFieldsAndCustomCellsAreDrawnAsBefore() throws {
        let plain = try cell(Row(id: "a", text: "A"))
        #expect(plain.tag.has("style-default") && plain.tag.has("accessory-none") && !plain.tag.has("has-link"))
        let custom = try cell(Row(id: "c", style: .custom, text: "C", template: "product", fields: Self.cityFields))
        #expect(custom.tag.has("style-custom") && !custom.tag.has("has-link"))
    }

    @Test func aNullFirstFieldIsPassedOver() throws {
        let fields = JSONObject([JSONMember("gone", .null), JSONMember("kept", .string("here"))])
        let (_, html) = try cell(Row(id: "r", text: "R", fields: fields))
        #expect(HTMLProbe.text(ofClass: "detail", in: html) == ["here"])
    }

    @Test func theDetailPageListsEveryFieldInOrderEscaped() throws {
        var table = Fixtures.table(rows: [
            Row(id: "la", text: "Los Angeles"), Row(id: "nyc", text: "New <York>", fields: Self.cityFields),
        ])
        table.title = "Cities & towns"
        let html = renderer.rowDetail(table, at: TableIndexPath(0, 1))
        #expect(HTMLProbe.text(ofClass: "record-name", tag: "dt", in: html) == Self.cityFields.keys)
        #expect(
            HTMLProbe.text(ofClass: "record-value", tag: "dd", in: html) == [
                "8336817", "783.8", "Big <apple> & \"more\"", "false", #"["Bronx",5]"#, #"{"name":"A"}"#, "null",
            ])
        let kinds = HTMLProbe.startTags("div", in: html).filter { $0.has("record-field") }
            .compactMap { $0.attributes["data-kind"] }
        #expect(kinds == ["number", "number", "string", "boolean", "array", "object", "null"])
        #expect(!html.contains("<apple>") && !html.contains("<York>"))
        #expect(HTMLProbe.text(ofClass: "nav-title", tag: "h1", in: html) == ["New <York>"])
        #expect(html.contains(#"<a class="nav-back" href="/tables/t#section-0-row-1">Cities &amp; towns</a>"#))
        let record = try #require(HTMLProbe.startTags("div", in: html).first { $0.has("record") })
        #expect(record.attributes["data-record-table"] == "t")
        #expect(record.attributes["data-row-id"] == "nyc")
        #expect(record.attributes["data-version"] == "7")
        // Not a live table view: the page's script keeps it live itself.
        #expect(!html.contains("data-table="))
    }

    @Test func aRowWithoutFieldsSaysSo() throws {
        let html = renderer.rowDetail(Fixtures.table(rows: [Row(id: "a", text: "A")]), at: TableIndexPath(0, 0))
        #expect(HTMLProbe.text(ofClass: "record-empty", tag: "p", in: html) == ["This row has no fields."])
        #expect(!html.contains("<dl"))
        #expect(renderer.rowDetail(Fixtures.table(rows: []), at: TableIndexPath(0, 0)).isEmpty)
    }

    @Test func otherPagesKeepTheirBackButton() throws {
        let html = renderer.page(Fixtures.table(rows: [Row(text: "A")]))
        #expect(html.contains(#"<a class="nav-back" href="/">Tables</a>"#))
    }
}
