import TableModel
import TableRendering
import Testing

/// A page's head and tail are kept for later requests (`PageHeads`); a page drawn
/// again shows what its table holds now, never a kept head of something else.
@Suite struct PageHeadsTests {
    private func table(title: String = "Kept", version: Int = 1, indexTitle: String = "A", text: String = "Row")
        -> Table
    {
        Table(
            id: "kept", title: title, header: "Top", footer: "Bottom", version: version,
            sections: (0..<2).map { s in
                Section(
                    id: "s\(s)", header: "Section \(s)", indexTitle: s == 0 ? indexTitle : "Z",
                    rows: (0..<3).map { Row(id: "r\(s)-\($0)", text: "\(text) \($0)") })
            })
    }

    @Test func aPageDrawnAgainIsTheSamePage() throws {
        let renderer = try makeRenderer()
        let first = renderer.page(table())
        #expect(renderer.page(table()) == first)
        #expect(try makeRenderer().page(table()) == first)
    }

    /// Each change to what the head or tail shows is drawn, whichever renderer kept a page before.
    @Test func aChangedTableIsDrawnAsItIsNow() throws {
        let renderer = try makeRenderer()
        _ = renderer.page(table())
        let changed: [(Table, String)] = [
            (table(title: "Renamed"), "Renamed"), (table(version: 2), #"data-version="2""#),
            (table(indexTitle: "Q"), #">Q</a>"#),
        ]
        for (table, shown) in changed {
            let page = renderer.page(table)
            #expect(page.contains(shown))
            #expect(page == (try makeRenderer().page(table)))
        }
        #expect(renderer.page(table(text: "Edited")).contains("Edited 2"))
        #expect(renderer.page(table(), style: .grouped).contains(#"class="table-view grouped""#))
    }
}
