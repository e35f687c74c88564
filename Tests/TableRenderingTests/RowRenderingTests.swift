import JSON
import TableModel
import TableRendering
import Testing

@Suite struct RowRenderingTests {
    let renderer: TableRenderer
    init() throws { renderer = try makeRenderer() }

    private func render(_ row: Row, table: (Row) -> Table = { Fixtures.table(rows: [$0]) }) -> String {
        renderer.row(table(row), at: TableIndexPath(0, 0))
    }

    @Test func contractAttributesExactly() throws {
        let row = Row(
            id: "usa", style: .subtitle, text: "United States", accessory: .detailDisclosureButton,
            editingStyle: .insert, canEdit: false, canMove: true, deleteTitle: "Remove")
        let html = renderer.row(Fixtures.table(rows: [Row(text: "first"), row]), at: TableIndexPath(0, 1))
        let tag = try #require(Fixtures.cells(html).first)
        #expect(
            tag.attributeNames == [
                "class", "id", "data-section", "data-row", "data-id", "data-editing-style", "data-can-edit",
                "data-can-move", "data-delete-title", "data-selection-style", "aria-selected", "style",
            ])
        #expect(
            tag.attributes == [
                "class": "cell style-subtitle accessory-detailDisclosureButton", "id": "section-0-row-1",
                "data-section": "0", "data-row": "1", "data-id": "usa",
                "data-editing-style": "insert", "data-can-edit": "false", "data-can-move": "true",
                "data-delete-title": "Remove", "data-selection-style": "default", "aria-selected": "false",
                "style": "height:44px",
            ])
        #expect(html.hasPrefix("<tr ") && html.hasSuffix("</td></tr>\n"))
    }

    @Test func rowWithoutIDHasNoDataID() throws {
        let tag = try #require(Fixtures.cells(render(Row(text: "anonymous"))).first)
        #expect(tag.attributes["data-id"] == nil)
        #expect(tag.attributes["data-row"] == "0")
    }

    @Test(arguments: CellStyle.allCases)
    func everyCellStyle(style: CellStyle) throws {
        let html = render(Row(style: style, text: "Text", detail: "Detail", image: "/public/flags/usa.svg"))
        let tag = try #require(Fixtures.cells(html).first)
        #expect(tag.has("style-\(style.rawValue)"))
        #expect(HTMLProbe.text(ofClass: "text", in: html) == ["Text"])
        // As in UIKit: a default cell has no detail label, a value2 cell no image view.
        let showsDetail = style == .subtitle || style == .value1 || style == .value2
        #expect(HTMLProbe.text(ofClass: "detail", in: html) == (showsDetail ? ["Detail"] : []))
        let images = HTMLProbe.startTags("img", in: html)
        #expect(images.count == (style == .value2 ? 0 : 1))
        #expect(tag.has("has-image") == (style != .value2))
    }

    @Test func imageElement() throws {
        let html = render(Row(text: "USA", image: "/public/flags/usa.svg"))
        let image = try #require(HTMLProbe.startTags("img", in: html).first)
        #expect(
            image.attributes == [
                "class": "image", "src": "/public/flags/usa.svg", "alt": "", "width": "29", "height": "29",
            ])
        #expect(!render(Row(text: "no image")).contains("<img"))
    }

    @Test(arguments: Accessory.allCases)
    func everyAccessory(accessory: Accessory) throws {
        let html = render(Row(text: "Row", accessory: accessory))
        let tag = try #require(Fixtures.cells(html).first)
        #expect(tag.has("accessory-\(accessory.rawValue)"))
        let expected: String? =
            switch accessory {
            case .none: nil
            case .disclosureIndicator:
                #"<span class="accessory"><span class="chevron" aria-hidden="true"></span></span>"#
            case .checkmark:
                #"<span class="accessory"><span class="checkmark" role="img" aria-label="Checked"></span></span>"#
            case .detailButton:
                #"<span class="accessory"><button type="button" class="info-button" aria-label="More info: Row"></button></span>"#
            case .detailDisclosureButton:
                #"<span class="accessory"><button type="button" class="info-button" aria-label="More info: Row"></button><span class="chevron" aria-hidden="true"></span></span>"#
            }
        if let expected {
            #expect(html.contains(expected + "</td></tr>"))
        } else {
            #expect(!html.contains("class=\"accessory\""))
        }
    }

    @Test(arguments: [Accessory.detailButton, .detailDisclosureButton])
    func detailLinkDrawsTheInfoButtonAsALink(accessory: Accessory) {
        let html = render(Row(text: "France", accessory: accessory, detailLink: "https://en.wikipedia.org/wiki/Paris"))
        #expect(
            html.contains(
                #"<a class="info-button" href="https://en.wikipedia.org/wiki/Paris" aria-label="More info: France"></a>"#
            ))
        #expect(!html.contains("<button"))
    }

    @Test func linkWrapsTheContentButNotTheAccessory() throws {
        let html = render(
            Row(
                style: .subtitle, text: "England", detail: "London", image: "/e.svg", accessory: .detailButton,
                link: "/countries/england", detailLink: "/cities/london"))
        #expect(
            html.contains(
                #"<td class="cell-body"><a class="cell-link" href="/countries/england"><img class="image" src="/e.svg" alt="" width="29" height="29"><span class="labels"><span class="text">England</span><span class="detail">London</span></span></a><span class="accessory"><a class="info-button" href="/cities/london""#
            ))
        let tag = try #require(Fixtures.cells(html).first)
        #expect(tag.has("has-link"))
        #expect(!render(Row(text: "plain")).contains("cell-link"))
    }

    @Test func selection() throws {
        let selected = try #require(Fixtures.cells(render(Row(text: "a", selected: true))).first)
        #expect(selected.has("selected"))
        #expect(selected.attributes["aria-selected"] == "true")

        let quiet = try #require(
            Fixtures.cells(render(Row(text: "b", selectionStyle: .none, selected: true))).first)
        #expect(quiet.has("selection-none") && quiet.has("selected"))
        #expect(quiet.attributes["data-selection-style"] == "none")

        let unselectable = try #require(
            Fixtures.cells(render(Row(text: "c"), table: { Fixtures.table(rows: [$0], allowsSelection: false) })).first)
        #expect(unselectable.attributes["aria-selected"] == nil)
    }

    @Test func heightsAndIndentation() throws {
        func style(_ row: Row, rowHeight: Double = 44) throws -> String? {
            try #require(Fixtures.cells(render(row) { Fixtures.table(rows: [$0], rowHeight: rowHeight) }).first)
                .attributes["style"]
        }
        #expect(try style(Row(text: "a")) == "height:44px")
        #expect(try style(Row(text: "a"), rowHeight: 60.5) == "height:60.5px")
        #expect(try style(Row(text: "a", height: 80), rowHeight: 60) == "height:80px")
        #expect(try style(Row(text: "a", indentationLevel: 2)) == "height:44px;--indent:2")
        #expect(try style(Row(text: "a", indentationLevel: -3, height: .infinity)) == "height:44px")
    }

    @Test func customCellReadsFields() throws {
        let fields = JSONObject([
            JSONMember("name", .string("Flag & pole")), JSONMember("summary", .string("3×5 ft")),
            JSONMember("price", .integer(24)), JSONMember("badge", .null),
        ])
        let html = render(Row(style: .custom, text: "fallback", template: "product", fields: fields))
        let tag = try #require(Fixtures.cells(html).first)
        #expect(tag.has("style-custom"))
        #expect(HTMLProbe.text(ofClass: "text", in: html) == ["Flag & pole"])
        #expect(
            html.contains(
                #"<span class="text">Flag &amp; pole</span><span class="detail">3×5 ft</span></span><span class="price">24</span>"#
            ))
        #expect(!html.contains("badge"))

        let unnamed = render(Row(style: .custom, text: "fallback", template: "product"))
        #expect(HTMLProbe.text(ofClass: "text", in: unnamed) == ["fallback"])
    }

    @Test func customRowWithoutItsTemplateIsADefaultCell() throws {
        for template in ["missing", nil, "../page", "cells/product"] as [String?] {
            let html = render(Row(style: .custom, text: "Plain text", detail: "ignored", template: template))
            #expect(Fixtures.cells(html).first?.has("style-custom") == true)
            #expect(
                html.contains(
                    #"<td class="cell-body"><span class="labels"><span class="text">Plain text</span></span></td>"#))
        }
    }

    @Test func rowOutsideTheTableIsEmpty() {
        let table = Fixtures.table(rows: [Row(text: "only")])
        #expect(renderer.row(table, at: TableIndexPath(0, 1)).isEmpty)
        #expect(renderer.row(table, at: TableIndexPath(1, 0)).isEmpty)
        #expect(renderer.row(table, at: TableIndexPath(-1, 0)).isEmpty)
    }
}
