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

/// A search's cost grows with its different words, never with repeats (an
/// outside check: `q` of one letter 3,950 times cost seconds of CPU).
@Suite struct SearchWordsTests {
    @Test func repeatsAndWordsOthersHoldAreDropped() throws {
        let repeated = Array(repeating: "a", count: 3_950).joined(separator: " ")
        #expect(try TableQuery(parameters: ["q": repeated]).words == ["a"])
        #expect(try TableQuery(parameters: ["q": "san SAN sa francisco Fran"]).words == ["san", "francisco"])
        #expect(try TableQuery(parameters: ["q": "São sao paulo"]).words == ["São", "paulo"])
    }

    @Test func theRowsFoundAreTheSame() throws {
        let table = ViewQueryTests.cities
        for q in ["san an", "a", "s sa san", "new york yo"] {
            let words = q.split(separator: " ").map { TextFolding.fold(String($0)) }
            let expected = table.sections.flatMap(\.rows).filter { row in
                let texts = TextFolding.fold(
                    ([row.text, row.detail ?? ""]
                        + row.fields.members.compactMap {
                            if case .string(let text) = $0.value { text } else { nil }
                        }).joined(separator: "\u{1F}"))
                return words.allSatisfy { word in
                    texts.withUnsafeBufferPointer { t in
                        word.withUnsafeBufferPointer { TextFolding.find($0, in: t) != nil }
                    }
                }
            }.map(\.id)
            let view = try TableQuery(parameters: ["q": q]).view(of: table)
            #expect(view.sections.flatMap(\.rows).map(\.id) == expected, "\(q)")
        }
    }

    @Test func moreThanThirtyTwoDifferentWordsIs400() {
        let words = (0..<33).map { "w\($0)x" }.joined(separator: " ")
        #expect(throws: TableQueryError(parameter: "q", detail: "a search has at most 32 different words")) {
            try TableQuery(parameters: ["q": words])
        }
    }
}
