import JSON
import Testing
@testable import TableModel

/// Views compare numbers exactly, by the literals they were given with, and a
/// table's `source` is read and written as docs/FORMAT.md says.
@Suite struct ExactNumberViewTests {
    static func row(_ id: String, _ literal: String) -> Row {
        Row(id: id, text: id, fields: JSONObject([JSONMember("n", JSONValue.number(literal: literal)!)]))
    }

    static let table = Table(
        id: "t",
        sections: [
            Section(rows: [
                row("c", "9007199254740993"), row("a", "9007199254740992"), row("b", "9007199254740993.5"),
                row("d", "1.50"), row("e", "1.5e0"),
            ])
        ])

    @Test func sortsPastTwoToTheFiftyThreeAndByValueNotByText() throws {
        let view = try TableQuery(parameters: ["sort": "fields.n"]).view(of: Self.table)
        #expect(view.sections[0].rows.map { $0.id! } == ["d", "e", "a", "c", "b"])
        let descending = try TableQuery(parameters: ["sort": "-fields.n"]).view(of: Self.table)
        #expect(descending.sections[0].rows.map { $0.id! } == ["b", "c", "a", "d", "e"], "ties keep the table's order")
    }

    @Test func filtersCompareExactly() throws {
        let above = try TableQuery(parameters: ["filter[fields.n][gt]": "9007199254740992"]).view(of: Self.table)
        #expect(above.sections[0].rows.map { $0.id! } == ["c", "b"])
        let equal = try TableQuery(parameters: ["filter[fields.n][eq]": "1.5"]).view(of: Self.table)
        #expect(equal.sections[0].rows.map { $0.id! } == ["d", "e"])
    }

    @Test func groupHeadersAreTheLiterals() throws {
        let grouped = try TableQuery(parameters: ["group": "fields.n"]).view(of: Self.table)
        #expect(grouped.sections.map(\.header).contains("9007199254740993.5"))
    }

    @Test func aSourceReadsBackAsWritten() throws {
        let document = #"""
            {"id": "t", "source": {"format": "csv", "columns": ["code", "name", "x", "x"], "text": "name", "id": "code",
             "fields": {"x": 3, "x_2": 4}, "sort": "name", "sortDescending": true}}
            """#
        let table = try ModelDecoder.table(from: JSONParser().parse(document))
        let source = try #require(table.source)
        #expect(
            source.id == 0 && source.text == 1
                && source.fields == [.init(column: 2, name: "x"), .init(column: 3, name: "x_2")])
        #expect(source.sort == 1 && source.sortDescending && !source.sortSections)
        #expect(try ModelDecoder.table(from: JSONParser().parse(table.jsonBytes)) == table)
    }

    @Test func aBadSourceIsRefusedWithItsPath() throws {
        let issues = try CodingFixture.tableIssues(
            #"{"id": "t", "source": {"columns": ["a"], "text": "b", "fields": {"n": 2, "bad name": "a"}, "sort": true, "extra": 1}}"#
        )
        #expect(
            issues.sorted() == [
                "$.source.fields.n: no column 2 among the 1 columns",
                "$.source.fields[\"bad name\"]: a field name must match [A-Za-z0-9_-]{1,64}",
                "$.source.sort: expected a column's name or its number, found a boolean",
                "$.source.text: no column \"b\" among the 1 columns",
                "$.source: unknown field \"extra\"",
            ])
    }
}
