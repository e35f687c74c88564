import JSON
import TableModel
import Testing

@Suite struct CodingBatchTests {
    private func batchIssues(_ text: String) throws -> [String] {
        try CodingFixture.issues(text, ModelDecoder.batch(from:limits:))
    }

    @Test func decodesTheSpecExample() throws {
        let batch = try ModelDecoder.batch(
            from: CodingFixture.parse(
                #"""
                {
                  "deleteSections": [2],
                  "insertSections": [{"at": 1, "section": {"id": "new", "rows": [{"text": "a"}]}}],
                  "reloadSections": [{"at": 0, "section": {"header": "H"}}],
                  "moveSections":   [{"from": 3, "to": 0}],
                  "deleteRows":     [[0, 1], [0, 5]],
                  "insertRows":     [{"at": [0, 2], "row": {"text": "N2"}}],
                  "reloadRows":     [{"at": [0, 4], "row": {"text": "A4'"}}],
                  "moveRows":       [{"from": [1, 0], "to": [0, 3]}],
                  "animation": "fade",
                  "expect": {"sections": 3, "rows": [5, 2, 7]},
                  "properties": {"title": null, "rowHeight": 50}
                }
                """#))
        #expect(batch.deleteSections == [2])
        #expect(batch.insertSections == [.init(at: 1, section: Section(id: "new", rows: [Row(text: "a")]))])
        #expect(batch.reloadSections == [.init(at: 0, section: Section(header: "H"))])
        #expect(batch.moveSections == [.init(from: 3, to: 0)])
        #expect(batch.deleteRows == [TableIndexPath(0, 1), TableIndexPath(0, 5)])
        #expect(batch.insertRows == [.init(at: TableIndexPath(0, 2), row: Row(text: "N2"))])
        #expect(batch.reloadRows == [.init(at: TableIndexPath(0, 4), row: Row(text: "A4'"))])
        #expect(batch.moveRows == [.init(from: TableIndexPath(1, 0), to: TableIndexPath(0, 3))])
        #expect(batch.animation == .fade)
        #expect(batch.expect == Batch.Expectation(sections: 3, rows: [5, 2, 7]))
        #expect(batch.properties == TableProperties(title: .some(nil), rowHeight: 50))
    }

    @Test func anEmptyBatchIsAccepted() throws {
        let batch = try ModelDecoder.batch(from: CodingFixture.parse("{}"))
        #expect(batch == Batch())
        #expect(batch.isEmpty)
    }

    @Test func refusesBadOperations() throws {
        #expect(
            try batchIssues(
                #"""
                {"deleteSections": [1, -1, 1.5, "2"],
                 "insertSections": [{"at": 0}, {"section": {}, "at": -2}, {"at": 1, "section": {"rows": [{"id": "a"}, {"id": "a"}]}}],
                 "moveSections": [{"from": 1}],
                 "deleteRows": [[0], [0, 1, 2], 3, [-1, 0]],
                 "insertRows": [{"at": [0, 0], "row": {"accessory": "arrow"}, "extra": 1}],
                 "moveRows": [{"from": [0, 0], "to": 5}],
                 "animation": "spin",
                 "expect": {"sections": -1, "rows": [1, null]},
                 "reloadRow": []}
                """#) == [
                    "$.deleteSections[1]: expected a non-negative integer, found -1",
                    "$.deleteSections[2]: expected an integer, found 1.5",
                    "$.deleteSections[3]: expected an integer, found a string",
                    #"$.insertSections[0]: missing required field "section""#,
                    "$.insertSections[1].at: expected a non-negative integer, found -2",
                    #"$.insertSections[2].section.rows[1].id: duplicate row id "a" (also at $.insertSections[2].section.rows[0])"#,
                    #"$.moveSections[0]: missing required field "to""#,
                    "$.deleteRows[0]: expected an index path [section, row], found an array of 1 elements",
                    "$.deleteRows[1]: expected an index path [section, row], found an array of 3 elements",
                    "$.deleteRows[2]: expected an index path [section, row], found a number",
                    "$.deleteRows[3][0]: expected a non-negative integer, found -1",
                    #"$.insertRows[0].row.accessory: unknown value "arrow"; expected one of "none", "disclosureIndicator", "detailDisclosureButton", "checkmark", "detailButton""#,
                    #"$.insertRows[0]: unknown field "extra""#,
                    "$.moveRows[0].to: expected an index path [section, row], found a number",
                    #"$.animation: unknown value "spin"; expected one of "fade", "right", "left", "top", "bottom", "middle", "none", "automatic""#,
                    "$.expect.sections: expected a non-negative integer, found -1",
                    "$.expect.rows[1]: expected an integer, found null",
                    #"$: unknown field "reloadRow""#,
                ])
    }

    @Test func decodesPatchProperties() throws {
        let all = try ModelDecoder.properties(
            from: CodingFixture.parse(
                #"""
                {"title": "T", "style": "grouped", "header": null, "footer": "F", "rowHeight": 60,
                 "allowsSelection": false, "allowsMultipleSelection": true}
                """#))
        #expect(
            all
                == TableProperties(
                    title: "T", style: .grouped, header: .some(nil), footer: "F", rowHeight: 60,
                    allowsSelection: false, allowsMultipleSelection: true))
        #expect(try ModelDecoder.properties(from: CodingFixture.parse("{}")).isEmpty)

        let patch = #"{"style": null, "rowHeight": 0, "sections": [], "allowsSelection": null}"#
        let issues = try CodingFixture.issues(patch, ModelDecoder.properties(from:limits:))
        #expect(
            issues == [
                "$.style: expected a string, found null",
                "$.rowHeight: expected a number greater than 0 and at most 10000, found 0",
                #"$: unknown field "sections""#,
                "$.allowsSelection: expected true or false, found null",
            ])
    }

    @Test func decodesSingleOperationBodies() throws {
        let section = try ModelDecoder.sectionInsert(from: CodingFixture.parse(#"{"at": 1, "section": {"id": "s"}}"#))
        #expect(section == .init(at: 1, section: Section(id: "s")))
        #expect(try ModelDecoder.sectionInsert(from: CodingFixture.parse(#"{"section": {}}"#)).at == nil)

        let one = try ModelDecoder.rowInsert(
            from: CodingFixture.parse(#"{"at": 2, "row": {"text": "a"}}"#), inSection: 0)
        #expect(one == .init(at: 2, rows: [Row(text: "a")]))
        let byIndexPath = try ModelDecoder.rowInsert(
            from: CodingFixture.parse(#"{"at": [1, 2], "row": {"text": "a"}}"#), inSection: 1)
        #expect(byIndexPath == .init(at: 2, rows: [Row(text: "a")]), "at takes a batch's index path too")
        let many = try ModelDecoder.rowInsert(
            from: CodingFixture.parse(#"{"rows": [{"text": "a"}, {"text": "b"}]}"#), inSection: 0)
        #expect(many == .init(at: nil, rows: [Row(text: "a"), Row(text: "b")]))

        #expect(try ModelDecoder.sectionMove(from: CodingFixture.parse(#"{"to": 3}"#)) == 3)
        #expect(try ModelDecoder.rowMove(from: CodingFixture.parse(#"{"to": [1, 2]}"#)) == TableIndexPath(1, 2))
    }

    @Test func refusesBadSingleOperationBodies() throws {
        let rowInsert = { (json: JSONValue, limits: ModelLimits) throws(ValidationError) in
            try ModelDecoder.rowInsert(from: json, inSection: 1, limits: limits)
        }
        #expect(
            try CodingFixture.issues(#"{"at": 1}"#, ModelDecoder.sectionInsert(from:limits:)) == [
                #"$: missing required field "section""#
            ])
        #expect(
            try CodingFixture.issues(#"{"at": 1.5}"#, rowInsert) == [
                "$.at: expected an integer, found 1.5",
                #"$: missing required field "row" or "rows""#,
            ])
        #expect(
            try CodingFixture.issues(#"{"at": [0, 1], "row": {}}"#, rowInsert) == [
                "$.at: the index path [0, 1] names section 0, but the request is for section 1"
            ])
        #expect(
            try CodingFixture.issues(#"{"at": [1], "row": {}}"#, rowInsert) == [
                "$.at: expected an index path [section, row], found an array of 1 elements"
            ])
        #expect(
            try CodingFixture.issues(#"{"at": "2", "row": {}}"#, rowInsert) == [
                "$.at: expected a row or an index path [section, row], found a string"
            ])
        #expect(
            try CodingFixture.issues(#"{"row": {}, "rows": []}"#, rowInsert) == [
                #"$: give either "row" or "rows", not both"#
            ])
        #expect(
            try CodingFixture.issues(#"{"rows": [{"id": "a"}, {"id": "a"}]}"#, rowInsert) == [
                #"$.rows[1].id: duplicate row id "a" (also at $.rows[0])"#
            ])
        #expect(
            try CodingFixture.issues(#"{"to": -1}"#, ModelDecoder.sectionMove(from:limits:)) == [
                "$.to: expected a non-negative integer, found -1"
            ])
        #expect(
            try CodingFixture.issues(#"{}"#, ModelDecoder.sectionMove(from:limits:)) == [
                #"$: missing required field "to""#
            ])
        #expect(
            try CodingFixture.issues(#"{"to": [1], "from": [0, 0]}"#, ModelDecoder.rowMove(from:limits:)) == [
                "$.to: expected an index path [section, row], found an array of 1 elements",
                #"$: unknown field "from""#,
            ])
        #expect(
            try CodingFixture.issues("[1]", ModelDecoder.rowMove(from:limits:)) == [
                "$: expected an object, found an array"
            ])
    }

    @Test func aSectionBodyChecksItsRows() throws {
        let section = #"{"rows": [{"id": "a"}, {"id": "a", "height": 0}]}"#
        #expect(
            try CodingFixture.issues(section, ModelDecoder.section(from:limits:)) == [
                "$.rows[1].height: expected a number greater than 0 and at most 10000, found 0",
                #"$.rows[1].id: duplicate row id "a" (also at $.rows[0])"#,
            ])
    }
}
