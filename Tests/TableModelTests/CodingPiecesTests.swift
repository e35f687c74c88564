import JSON
import TableModel
import Testing

/// A table's JSON in pieces joins to exactly its whole document.
@Suite struct CodingPiecesTests {
    private func table(sizes: [Int]) -> Table {
        Table(
            id: "t", title: "Pieces <&>", style: .grouped,
            sections: sizes.enumerated().map { index, size in
                Section(
                    id: "s\(index)", header: "S\(index)",
                    rows: (0..<size).map { Row(id: "r\(index)-\($0)", text: "\"R\($0)\"") })
            })
    }

    @Test(arguments: [[], [0], [0, 0, 3], [1], [5, 0, 7], [10, 10], [2, 9, 0, 1, 4]])
    func piecesJoinToTheWholeDocument(sizes: [Int]) {
        let table = table(sizes: sizes)
        for rowsPerPiece in [1, 2, 3, 5, 10, 1000] {
            let pieces = Array(table.jsonPieces(rowsPerPiece: rowsPerPiece))
            #expect(pieces.joined().elementsEqual(table.jsonBytes), "sizes \(sizes), \(rowsPerPiece) rows a piece")
            #expect(pieces.allSatisfy { !$0.isEmpty })
        }
    }

    @Test func noPieceHoldsMoreRowsThanAsked() throws {
        let table = table(sizes: [25, 3])
        let pieces = Array(table.jsonPieces(rowsPerPiece: 10))
        // The opening, 10 + 10 + 5 rows of the first section, 3 of the second, the closing.
        #expect(pieces.count == 6)
        for piece in pieces {
            let text = String(decoding: piece, as: UTF8.self)
            #expect(text.ranges(of: "\"id\":\"r").count <= 10)
        }
        let parsed = try JSONParser().parse(Array(pieces.joined()))
        guard case .object(let object) = parsed, case .array(let sections)? = object["sections"] else {
            Issue.record("not a table document")
            return
        }
        #expect(sections.count == 2)
    }

    @Test func eachIterationWritesTheDocumentAgain() {
        let pieces = table(sizes: [4, 4]).jsonPieces(rowsPerPiece: 3)
        #expect(Array(pieces) == Array(pieces))
    }
}
