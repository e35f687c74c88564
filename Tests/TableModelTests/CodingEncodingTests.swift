import JSON
import TableModel
import Testing

@Suite struct CodingEncodingTests {
    private let defaultRow = #"""
        {"id":null,"style":"default","text":"","detail":null,"image":null,"accessory":"none",\#
        "accessoryView":null,"selectionStyle":"default","editingStyle":"delete","canEdit":true,"canMove":true,"deleteTitle":"Delete",\#
        "indentationLevel":0,"height":null,"selected":false,"template":null,"fields":{},"link":null,"detailLink":null}
        """#

    @Test func writesARowWithEveryFieldAndItsDefaults() {
        #expect(CodingFixture.text(Row().jsonBytes) == defaultRow)
        let row = Row(
            id: "usa", style: .subtitle, text: "United States", height: 44.5,
            fields: JSONObject([JSONMember("k", .integer(1))]))
        let text = CodingFixture.text(row.jsonBytes)
        #expect(text.hasPrefix(#"{"id":"usa","style":"subtitle","text":"United States","detail":null,"#))
        #expect(text.contains(#""height":44.5,"#))
        #expect(text.contains(#""fields":{"k":1},"#))
    }

    @Test func writesATableDocumentAsTheSpecShowsIt() {
        let table = Table(
            id: "countries", title: "Countries", version: 7,
            sections: [
                Section(id: "uk", header: "United Kingdom", indexTitle: "U", rows: [Row()])
            ])
        let expected = #"""
            {"id":"countries","title":"Countries","style":"plain","header":null,"footer":null,"rowHeight":44,\#
            "allowsSelection":true,"allowsMultipleSelection":false,"version":7,"sections":[\#
            {"id":"uk","header":"United Kingdom","footer":null,"indexTitle":"U","rows":[\#(defaultRow)]}]}
            """#
        #expect(CodingFixture.text(table.jsonBytes) == expected)
    }

    @Test func writesSummaries() {
        let table = Table(
            id: "t", style: .grouped, version: 3,
            sections: [
                Section(id: "a", footer: "f", rows: [Row(), Row()]), Section(rows: [Row()]),
            ])
        var writer = JSONWriter()
        table.writeSummaryJSON(to: &writer)
        #expect(
            CodingFixture.text(writer.bytes)
                == #"{"id":"t","title":null,"style":"grouped","sectionCount":2,"rowCount":3,"version":3}"#)

        writer = JSONWriter()
        writer.array { writer in table.sections.forEach { $0.writeSummaryJSON(to: &writer) } }
        #expect(
            CodingFixture.text(writer.bytes) == #"""
                [{"id":"a","header":null,"footer":"f","indexTitle":null,"rowCount":2},\#
                {"id":null,"header":null,"footer":null,"indexTitle":null,"rowCount":1}]
                """#)
    }

    @Test func writesABatchNormalised() {
        let batch = Batch(
            deleteSections: [4, 2],
            insertSections: [.init(at: 3, section: Section(id: "b")), .init(at: 1, section: Section(id: "a"))],
            deleteRows: [TableIndexPath(1, 0), TableIndexPath(0, 5), TableIndexPath(0, 1)],
            insertRows: [
                .init(at: TableIndexPath(0, 3), row: Row(text: "y")),
                .init(at: TableIndexPath(0, 2), row: Row(text: "x")),
            ],
            moveRows: [
                .init(from: TableIndexPath(2, 0), to: TableIndexPath(0, 0)),
                .init(from: TableIndexPath(1, 1), to: TableIndexPath(1, 0)),
            ],
            expect: Batch.Expectation(sections: 9))
        let text = CodingFixture.text(batch.jsonBytes)
        let section = { (id: String) in #"{"id":"\#(id)","header":null,"footer":null,"indexTitle":null,"rows":[]}"# }
        let row = { (text: String) in CodingFixture.text(Row(text: text).jsonBytes) }
        #expect(
            text == #"""
                {"deleteSections":[2,4],\#
                "insertSections":[{"at":1,"section":\#(section("a"))},{"at":3,"section":\#(section("b"))}],\#
                "deleteRows":[[0,1],[0,5],[1,0]],\#
                "insertRows":[{"at":[0,2],"row":\#(row("x"))},{"at":[0,3],"row":\#(row("y"))}],\#
                "moveRows":[{"from":[1,1],"to":[1,0]},{"from":[2,0],"to":[0,0]}],\#
                "animation":"automatic"}
                """#)
    }

    @Test func writesAnEmptyBatchWithItsAnimationOnly() {
        #expect(CodingFixture.text(Batch(animation: .none).jsonBytes) == #"{"animation":"none"}"#)
        #expect(CodingFixture.text(Batch(properties: TableProperties()).jsonBytes) == #"{"animation":"automatic"}"#)
    }

    @Test func writesPropertiesAndChanges() {
        let batch = Batch(
            moveSections: [.init(from: 3, to: 0), .init(from: 1, to: 2)],
            properties: TableProperties(title: .some(nil), header: "H", allowsSelection: false), animation: .fade)
        #expect(
            CodingFixture.text(batch.changeJSONBytes(version: 7)) == #"""
                {"version":7,"batch":{"moveSections":[{"from":1,"to":2},{"from":3,"to":0}],\#
                "properties":{"title":null,"header":"H","allowsSelection":false},"animation":"fade"}}
                """#)
    }

    @Test func writesTableJSONThatParsesBackStrictly() throws {
        let table = try ModelDecoder.table(from: CodingFixture.parse(CodingFixture.fullTable))
        let reparsed = try JSONParser().parse(table.jsonBytes)
        guard case .object(let object) = reparsed else {
            Issue.record("not an object")
            return
        }
        #expect(
            object.keys == [
                "id", "title", "style", "header", "footer", "rowHeight", "allowsSelection", "allowsMultipleSelection",
                "version", "sections",
            ])
    }
}
