import Testing

@testable import TableModel

/// A page of a view's section read in place (`TableQuery.page`) is the page
/// of the view derived whole, and copies only its own rows: the first page
/// of a search that matches every row costs about what a selective one does.
@Suite struct ViewPageTests {
    @Test("a page read in place is the derived view's page", arguments: 0..<6)
    func aPageReadInPlaceIsTheDerivedViewsPage(seed: UInt64) {
        var random = ViewRandomTables(seed: 0x9A6E_0000 + seed)
        var checked = 0
        for _ in 0..<300 {
            let table = random.table()
            var query = random.query()
            query.sort = []
            query.group = nil
            guard query.readsPagesInPlace else { continue }
            let view = query.view(of: table)
            for index in 0...view.sections.count {
                for range in [0..<100, 0..<1, 1..<3, 2..<2, 4..<9] {
                    let page = query.page(range, ofSection: index, in: table)
                    #expect(page.hasSection == (index < view.sections.count))
                    guard index < view.sections.count else { continue }
                    let rows = view.sections[index].rows
                    #expect(page.total == rows.count)
                    let slice = min(range.lowerBound, rows.count)..<min(range.upperBound, rows.count)
                    #expect(page.rows == rows.rows(in: slice))
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }

    /// A section whose only selected row lies past the first stretch read is
    /// still in the view, and the page after it is the next section's.
    @Test func aSectionWhoseOnlyMatchIsFarDownIsInTheView() throws {
        var rows = (0..<3_000).map { Row(id: "a\($0)", text: "plain \($0)") }
        rows[2_500].text = "needle"
        let table = Table(
            id: "t",
            sections: [
                Section(rows: [Row(id: "z", text: "nothing")]), Section(rows: rows),
                Section(rows: [Row(id: "b", text: "needle too")]),
            ])
        let query = try TableQuery(parameters: ["q": "needle"])
        #expect(query.page(0..<10, ofSection: 0, in: table).rows.map(\.id) == ["a2500"])
        let second = query.page(0..<10, ofSection: 1, in: table)
        #expect(second.rows.map(\.id) == ["b"] && second.total == 1)
        #expect(!query.page(0..<10, ofSection: 2, in: table).hasSection)
    }

    /// The first page of `q=Row` over rows that all hold "Row" costs about
    /// what a selective search's does, at 10,000 rows as at 100,000: the rows
    /// copied stay the page's, and the cost of the two stays within a small
    /// ratio of each other (deriving the view copied every row selected: at
    /// 100,000 rows some thirty times a selective search).
    @Test func aMatchAllFirstPageCostsAboutWhatASelectiveOneDoes() throws {
        let matchAll = try TableQuery(parameters: ["q": "Row"])
        let selective = try TableQuery(parameters: ["q": "Row 4242"])
        var ratios: [Double] = []
        for size in [10_000, 100_000] {
            let table = Table(
                id: "t", sections: [Section(rows: (0..<size).map { Row(id: "r\($0)", text: "Row \($0)") })])
            _ = selective.page(0..<100, ofSection: 0, in: table)  // every leaf's search text built once
            let all = matchAll.page(0..<100, ofSection: 0, in: table)
            #expect(all.rows.count == 100 && all.total == size)
            #expect((1..<100).contains(selective.page(0..<100, ofSection: 0, in: table).total))
            let allCost = Self.fastest { _ = matchAll.page(0..<100, ofSection: 0, in: table) }
            let selectiveCost = Self.fastest { _ = selective.page(0..<100, ofSection: 0, in: table) }
            ratios.append(allCost / selectiveCost)
        }
        #expect(ratios.allSatisfy { $0 < 4 }, "match-all over selective first page, at 10k and 100k rows: \(ratios)")
    }

    /// The least time `body` took in seven runs, in seconds.
    static func fastest(_ body: () -> Void) -> Double {
        (0..<7).map { _ in
            let clock = ContinuousClock()
            let elapsed = clock.measure(body)
            return Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)
        }.min()!
    }
}
