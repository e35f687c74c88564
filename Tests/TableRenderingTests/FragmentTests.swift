import JSON
import TableModel
import TableRendering
import Testing

@Suite struct FragmentTests {
    let renderer: TableRenderer
    init() throws { renderer = try makeRenderer() }

    private let table = Table(
        id: "big", rowHeight: 50,
        sections: [
            Section(header: "Small", rows: [Row(text: "s0")]),
            Section(id: "numbers", header: "Numbers", rows: (0..<25).map { Row(id: "n\($0)", text: "Row \($0)") }),
        ])

    @Test func pageStopsAtTheRowLimitWithAMoreRow() throws {
        let html = renderer.page(table, rowLimit: 10)
        let cells = Fixtures.cells(html)
        #expect(
            cells.filter { $0.attributes["data-section"] == "1" }.map { $0.attributes["data-row"] }
                == (0..<10).map { String($0) })
        #expect(
            html.contains(
                #"<tr class="more" data-section="1" data-next-offset="10" data-remaining="15"><td><a href="/tables/big/sections/1?offset=10">Show 15 more rows</a></td></tr>"#
            ))
        // The short section is complete and has no more row.
        #expect(!html.contains(#"<tr class="more" data-section="0""#))
        #expect(!renderer.page(table).contains("class=\"more\""))
    }

    @Test func rowsFragmentContinuesWhereThePageStopped() throws {
        let html = renderer.rows(table, section: 1, range: 10..<20)
        #expect(html.hasPrefix("<tr class=\"cell "))
        #expect(!html.contains("<tbody") && !html.contains("section-header"))
        #expect(Fixtures.cells(html).map { $0.attributes["data-id"] } == (10..<20).map { "n\($0)" })
        #expect(
            html.hasSuffix(
                #"<tr class="more" data-section="1" data-next-offset="20" data-remaining="5"><td><a href="/tables/big/sections/1?offset=20">Show 5 more rows</a></td></tr>"#
                    + "\n"))

        let last = renderer.rows(table, section: 1, range: 20..<25)
        #expect(Fixtures.cells(last).count == 5)
        #expect(!last.contains("class=\"more\""))
    }

    @Test func rowsFragmentClampsAndRefusesUnknownSections() {
        #expect(Fixtures.cells(renderer.rows(table, section: 1, range: 20..<100)).count == 5)
        #expect(renderer.rows(table, section: 1, range: 30..<40).isEmpty)
        #expect(renderer.rows(table, section: 2, range: 0..<10).isEmpty)
        #expect(renderer.rows(table, section: -1, range: 0..<10).isEmpty)
    }

    @Test func sectionIsOneTbody() throws {
        let html = renderer.section(table, at: 1)
        #expect(html.hasPrefix(#"<tbody class="section" data-section="1" id="section-1" data-section-id="numbers">"#))
        #expect(html.hasSuffix("</tbody>\n"))
        #expect(html.components(separatedBy: "<tbody").count == 2)
        #expect(Fixtures.cells(html).count == 25)
        #expect(Fixtures.cells(renderer.section(table, at: 1, rowLimit: 3)).count == 3)
        #expect(renderer.section(table, at: 2).isEmpty)
    }

    @Test func rowMatchesItsPageRendering() {
        let page = renderer.page(table)
        for position in [0, 7, 24] {
            #expect(page.contains(renderer.row(table, at: TableIndexPath(1, position))))
        }
    }

    /// Rows drawn in bulk (stamped once per shape) must equal rows rendered one by
    /// one through the template, for rows of every shape.
    @Test func bulkRowsEqualSingleRows() {
        var rows: [Row] = []
        for style in CellStyle.allCases {
            for accessory in Accessory.allCases {
                rows.append(
                    Row(
                        id: "\(style)-\(accessory)", style: style, text: "\(style) <\(accessory)>",
                        detail: accessory == .checkmark ? nil : "d'\(rows.count)",
                        image: rows.count % 3 == 0 ? "/i.svg" : nil,
                        accessory: accessory, selectionStyle: rows.count % 4 == 0 ? .none : .default,
                        editingStyle: rows.count % 2 == 0 ? .delete : .insert, canEdit: rows.count % 5 != 0,
                        canMove: rows.count % 3 != 0, deleteTitle: rows.count % 7 == 0 ? "" : "Delete \"it\"",
                        indentationLevel: rows.count % 3, height: rows.count % 6 == 0 ? 70 : nil,
                        selected: rows.count % 5 == 0, template: style == .custom ? "product" : nil,
                        fields: rows.count % 8 == 0
                            ? JSONObject([JSONMember("name", .string("F\(rows.count)"))]) : JSONObject(),
                        link: rows.count % 2 == 0 ? "/l/\(rows.count)" : "javascript:x()",
                        detailLink: rows.count % 3 == 0 ? "https://example.com/\(rows.count)" : nil))
            }
        }
        for allowsSelection in [true, false] {
            let table = Table(id: "shapes", allowsSelection: allowsSelection, sections: [Section(rows: rows + rows)])
            let bulk = renderer.rows(table, section: 0, range: 0..<(rows.count * 2))
            let single = (0..<(rows.count * 2)).map { renderer.rowThroughTemplate(table, at: TableIndexPath(0, $0)) }
            #expect(bulk == single.joined())
            // A row alone (a live update's) is drawn as the page draws it.
            #expect((0..<(rows.count * 2)).map { renderer.row(table, at: TableIndexPath(0, $0)) } == single)
        }
    }
}
