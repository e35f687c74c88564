import Testing
@testable import TableModel

@Suite("Batch engine: what an accepted batch does")
struct BatchEngineTests {
    typealias F = BatchFixture

    @Test("The worked example of docs/API.md, \"A batch\": A0 A2 N2 N3 A3 A4' A6")
    func workedExample() throws {
        let table = F.table([7])
        var result = table
        let normalised = try result.apply(
            Batch(
                deleteRows: [TableIndexPath(0, 1), TableIndexPath(0, 5)],
                insertRows: [
                    .init(at: TableIndexPath(0, 2), row: F.row("N2")),
                    .init(at: TableIndexPath(0, 3), row: F.row("N3")),
                ],
                reloadRows: [.init(at: TableIndexPath(0, 4), row: F.row("A4'"))]
            ))
        #expect(F.texts(result) == [["A0", "A2", "N2", "N3", "A3", "A4'", "A6"]])
        #expect(result.version == table.version + 1)
        #expect(normalised.deleteRows == [TableIndexPath(0, 1), TableIndexPath(0, 5)])
    }

    @Test("An empty batch changes nothing, not even the version, and answers an empty batch")
    func emptyBatch() throws {
        let table = F.table([3, 2])
        var result = table
        let normalised = try result.apply(Batch(properties: TableProperties(), animation: .fade))
        #expect(result == table)
        #expect(normalised == Batch(animation: .fade))
        #expect(normalised.isEmpty)
    }

    @Test("An empty batch whose expect holds is accepted; one whose expect fails is refused")
    func emptyBatchWithExpect() throws {
        let table = F.table([3, 2])
        #expect(try applied(Batch(expect: .init(sections: 2, rows: [3, 2])), to: table) == table)
        expectRefused(
            Batch(expect: .init(rows: [3, 1])), on: table, .invalidUpdate,
            "Invalid update: invalid number of rows in section 1. The number of rows contained in an existing section after the update (1) must be equal to the number of rows contained in that section before the update (2), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."
        )
    }

    @Test("The answer is normalised: lists sorted by position, expect dropped, animation kept")
    func normalisedAnswer() throws {
        var table = F.table([5, 5])
        let normalised = try table.apply(
            Batch(
                deleteRows: [TableIndexPath(1, 3), TableIndexPath(0, 4), TableIndexPath(1, 0)],
                insertRows: [
                    .init(at: TableIndexPath(1, 2), row: F.row("X")), .init(at: TableIndexPath(0, 0), row: F.row("Y")),
                ],
                moveRows: [
                    .init(from: TableIndexPath(1, 1), to: TableIndexPath(0, 1)),
                    .init(from: TableIndexPath(0, 0), to: TableIndexPath(1, 0)),
                ],
                properties: TableProperties(),
                animation: .left,
                expect: .init(sections: 2, rows: [5, 4])
            ))
        #expect(normalised.deleteRows == [TableIndexPath(0, 4), TableIndexPath(1, 0), TableIndexPath(1, 3)])
        #expect(normalised.insertRows.map(\.at) == [TableIndexPath(0, 0), TableIndexPath(1, 2)])
        #expect(normalised.insertRows.map(\.row.text) == ["Y", "X"])
        #expect(normalised.moveRows.map(\.from) == [TableIndexPath(0, 0), TableIndexPath(1, 1)])
        #expect(normalised.expect == nil)
        #expect(normalised.properties == nil)
        #expect(normalised.animation == .left)
        #expect(F.texts(table) == [["Y", "B1", "A1", "A2", "A3"], ["A0", "B2", "X", "B4"]])
    }

    @Test(
        "A refused batch changes nothing, whatever else it contained",
        arguments: [
            Batch.Expectation(sections: 4),
            Batch.Expectation(rows: [2, 6, 4]),
        ])
    func atomicity(_ wrongExpectation: Batch.Expectation) {
        let table = F.table([6, 3, 2])
        let batch = Batch(
            deleteSections: [2],
            insertSections: [.init(at: 0, section: F.section("X", 2))],
            moveSections: [.init(from: 1, to: 2)],
            deleteRows: [TableIndexPath(0, 0)],
            insertRows: [.init(at: TableIndexPath(2, 0), row: F.row("N", id: "n"))],
            reloadRows: [.init(at: TableIndexPath(0, 1), row: F.row("R"))],
            moveRows: [.init(from: TableIndexPath(1, 2), to: TableIndexPath(1, 0))],
            properties: TableProperties(title: .some("changed")),
            expect: wrongExpectation
        )
        var copy = table
        #expect(throws: BatchError.self) { try copy.apply(batch) }
        #expect(copy == table)
        #expect(copy.version == table.version)
        var valid = batch
        valid.expect = .init(sections: 3, rows: [2, 6, 3])
        #expect(throws: Never.self) { try copy.apply(valid) }
        #expect(F.texts(copy) == [["X0", "X1"], ["B2", "R", "A2", "A3", "A4", "A5"], ["N", "B0", "B1"]])
    }

    @Test("Table properties are applied, versioned and kept in the answer")
    func properties() throws {
        var table = F.table([1])
        let properties = TableProperties(
            title: .some("New"), style: .grouped, header: .some(nil), footer: .some("end"),
            rowHeight: 60, allowsSelection: false, allowsMultipleSelection: true
        )
        table.header = "old header"
        let normalised = try table.apply(Batch(properties: properties))
        #expect(normalised.properties == properties)
        #expect(table.title == "New")
        #expect(table.style == .grouped)
        #expect(table.header == nil)
        #expect(table.footer == "end")
        #expect(table.rowHeight == 60)
        #expect(!table.allowsSelection)
        #expect(table.allowsMultipleSelection)
        #expect(table.version == 1)
    }

    @Test("Sections: inserted and moved land at their target, the rest keep their order")
    func sectionOperations() throws {
        let table = F.table([1, 1, 1, 1, 1])
        let result = try applied(
            Batch(
                deleteSections: [1],
                insertSections: [.init(at: 0, section: F.section("X", 0))],
                reloadSections: [.init(at: 2, section: F.section("R", 1))],
                moveSections: [.init(from: 4, to: 1)]
            ), to: table)
        #expect(F.headers(result) == ["X", "E", "A", "R", "D"])
    }

    @Test("Rows of a moved section: sources by its old index, targets by its new one")
    func rowsOfMovedSection() throws {
        let table = F.table([3, 2, 2])
        let result = try applied(
            Batch(
                moveSections: [.init(from: 2, to: 0)],
                deleteRows: [TableIndexPath(2, 0)],
                insertRows: [.init(at: TableIndexPath(0, 0), row: F.row("N"))],
                moveRows: [
                    .init(from: TableIndexPath(0, 2), to: TableIndexPath(0, 1)),
                    .init(from: TableIndexPath(2, 1), to: TableIndexPath(1, 0)),
                ]
            ), to: table)
        #expect(F.headers(result) == ["C", "A", "B"])
        #expect(F.texts(result) == [["N", "A2"], ["C1", "A0", "A1"], ["B0", "B1"]])
    }

    @Test("A row moves within its section and across sections")
    func rowMoves() throws {
        let table = F.table([4, 2])
        let result = try applied(
            Batch(moveRows: [
                .init(from: TableIndexPath(0, 0), to: TableIndexPath(0, 3)),
                .init(from: TableIndexPath(1, 1), to: TableIndexPath(0, 0)),
                .init(from: TableIndexPath(0, 2), to: TableIndexPath(1, 0)),
            ]), to: table)
        #expect(F.texts(result) == [["B1", "A1", "A3", "A0"], ["A2", "B0"]])
    }

    @Test("Every order of the lists gives the same table")
    func orderIndependence() throws {
        let table = F.table([6, 3, 2])
        let batch = Batch(
            deleteSections: [2],
            insertSections: [.init(at: 2, section: F.section("X", 2)), .init(at: 0, section: F.section("Y", 1))],
            deleteRows: [TableIndexPath(0, 5), TableIndexPath(0, 0), TableIndexPath(1, 1)],
            insertRows: [
                .init(at: TableIndexPath(1, 4), row: F.row("N1")), .init(at: TableIndexPath(1, 0), row: F.row("N0")),
            ],
            reloadRows: [
                .init(at: TableIndexPath(0, 3), row: F.row("R")), .init(at: TableIndexPath(1, 2), row: F.row("S")),
            ],
            moveRows: [
                .init(from: TableIndexPath(0, 1), to: TableIndexPath(3, 0)),
                .init(from: TableIndexPath(1, 0), to: TableIndexPath(1, 1)),
            ]
        )
        let expected = try applied(batch, to: table)
        var random = RandomBatches(seed: 7)
        for _ in 0..<50 {
            #expect(try applied(random.shuffled(batch), to: table) == expected)
        }
        #expect(F.texts(expected) == [["Y0"], ["N0", "B0", "A2", "R", "N1", "A4"], ["X0", "X1"], ["A1", "S"]])
    }

    @Test("Deletes free ids that inserts of the same batch may reuse; the id index stays exact")
    func idReuse() throws {
        let table = Table(
            id: "t",
            sections: [
                Section(id: "s1", rows: [F.row("a", id: "a"), F.row("b", id: "b")]),
                Section(id: "s2", rows: [F.row("c", id: "c")]),
            ])
        let result = try applied(
            Batch(
                deleteSections: [1],
                insertSections: [.init(at: 1, section: Section(id: "s2", rows: [F.row("c2", id: "c")]))],
                deleteRows: [TableIndexPath(0, 0)],
                insertRows: [.init(at: TableIndexPath(0, 0), row: F.row("a2", id: "a"))],
                reloadRows: [.init(at: TableIndexPath(0, 1), row: F.row("b2", id: "b3"))]
            ), to: table)
        #expect(result.ids.rowIDs == ["a", "b3", "c"])
        #expect(result.ids.sectionIDs == ["s1", "s2"])
        let reused = try applied(
            Batch(insertRows: [.init(at: TableIndexPath(1, 0), row: F.row("b", id: "b"))]), to: result)
        #expect(reused.ids.rowIDs == ["a", "b", "b3", "c"])
    }

    @Test("A single-row edit in a large section edits it in place")
    func largeSection() throws {
        var table = Table(id: "big", sections: [Section(rows: (0..<100_000).map { F.row("\($0)") })])
        _ = try table.apply(Batch(insertRows: [.init(at: TableIndexPath(0, 50_000), row: F.row("new"))]))
        _ = try table.apply(Batch(deleteRows: [TableIndexPath(0, 0)]))
        _ = try table.apply(Batch(moveRows: [.init(from: TableIndexPath(0, 99_999), to: TableIndexPath(0, 0))]))
        let rows = table.sections[0].rows
        #expect(rows.count == 100_000)
        #expect(rows[0].text == "99999")
        #expect(rows[49_999].text == "49999")
        #expect(rows[50_000].text == "new")
        #expect(rows[50_001].text == "50000")
        #expect(table.version == 3)
    }
}
