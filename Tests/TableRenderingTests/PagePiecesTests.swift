import Foundation
import TableModel
import TableRendering
import Testing

/// `GET /tables/{t}` is sent in pieces as they are drawn; joined, they are the page.
@Suite struct PagePiecesTests {
    let renderer: TableRenderer
    init() throws { renderer = try makeRenderer() }

    private func table(title: String = "Pieces", sections: Int = 3) -> Table {
        Table(
            id: "pieces", title: title, header: "Top", footer: "Bottom",
            sections: (0..<sections).map { s in
                Section(
                    id: "s\(s)", header: "Section \(s)", footer: "End \(s)", indexTitle: "S",
                    rows: (0..<5).map { Row(id: "r\(s)-\($0)", style: .subtitle, text: "Row \($0)", detail: "Detail") })
            })
    }

    @Test func onePieceBeforeTheSectionsOnePerSectionOneAfter() {
        let pieces = Array(renderer.pagePieces(table()))
        #expect(pieces.count == 5)
        let texts = pieces.map { String(decoding: $0, as: UTF8.self) }
        #expect(texts[0].hasPrefix("<!doctype html>"))
        #expect(!texts[0].contains("<tbody"))
        for section in 0..<3 {
            #expect(texts[section + 1].hasPrefix("<tbody class=\"section\" data-section=\"\(section)\""))
        }
        #expect(texts[4].contains("</table>"))
        #expect(texts[4].hasSuffix("</html>\n"))
    }

    @Test func thePageDrawsAtMostPageRowLimitRowsInAllTheRestBehindMoreRows() {
        let table = table(sections: 4)
        let pieces = renderer.pagePieces(table, rowLimit: 4, pageRowLimit: 7)
        let texts = Array(pieces).map { String(decoding: $0, as: UTF8.self) }
        let rows = texts.map { $0.components(separatedBy: "<tr class=\"cell").count - 1 }
        #expect(rows == [0, 4, 3, 0, 0, 0])
        let remaining = texts.map { text in
            text.range(of: "data-remaining=\"")
                .map { text[$0.upperBound...].prefix { $0 != "\"" } }.map(String.init)
        }
        #expect(remaining == [nil, "1", "2", "5", "5", nil])
        #expect(texts.joined() == renderer.page(table, rowLimit: 4, pageRowLimit: 7))
    }

    @Test(arguments: TableStyle.allCases)
    func joinedPiecesAreThePage(style: TableStyle) {
        let table = table()
        let joined = String(decoding: Array(renderer.pagePieces(table, style: style).joined()), as: UTF8.self)
        #expect(joined == renderer.page(table, style: style))
        #expect(joined.components(separatedBy: "<tbody class=\"section\"").count == 4)
    }

    @Test func aTitleCannotForgeTheCut() {
        let table = table(title: "<\u{1}sections\u{2}>", sections: 2)
        let pieces = Array(renderer.pagePieces(table)).map { String(decoding: $0, as: UTF8.self) }
        #expect(pieces.count == 4)
        #expect(pieces[0].contains("&lt;\u{1}sections\u{2}&gt;"))
        #expect(pieces[1].hasPrefix("<tbody"))
    }

    @Test func aTableWithoutSectionsIsTwoPieces() {
        let pieces = Array(renderer.pagePieces(table(sections: 0)))
        #expect(pieces.count == 2)
    }
}
