import JSON
import TableModel
import Testing

@Suite struct CodingValidationTests {
    @Test func namesThePathOfAnUnknownEnumValue() throws {
        let issues = try CodingFixture.tableIssues(
            #"""
            {"id": "t", "sections": [{"rows": []}, {"rows": [{}, {}, {}, {"accessory": "arrow"}]}]}
            """#)
        #expect(
            issues == [
                #"$.sections[1].rows[3].accessory: unknown value "arrow"; expected one of "none", "disclosureIndicator", "detailDisclosureButton", "checkmark", "detailButton""#
            ])
    }

    @Test(arguments: [
        (
            #"{"style": "fancy"}"#,
            #"$.sections[0].rows[0].style: unknown value "fancy"; expected one of "default", "subtitle", "value1", "value2", "custom""#
        ),
        (
            #"{"selectionStyle": "blue"}"#,
            #"$.sections[0].rows[0].selectionStyle: unknown value "blue"; expected one of "default", "none""#
        ),
        (
            #"{"editingStyle": "remove"}"#,
            #"$.sections[0].rows[0].editingStyle: unknown value "remove"; expected one of "delete", "insert", "none""#
        ),
        (#"{"text": 5}"#, "$.sections[0].rows[0].text: expected a string, found a number"),
        (#"{"text": null}"#, "$.sections[0].rows[0].text: expected a string, found null"),
        (#"{"detail": true}"#, "$.sections[0].rows[0].detail: expected a string or null, found a boolean"),
        (#"{"canEdit": "yes"}"#, "$.sections[0].rows[0].canEdit: expected true or false, found a string"),
        (#"{"selected": 1}"#, "$.sections[0].rows[0].selected: expected true or false, found a number"),
        (#"{"accessory": 3}"#, "$.sections[0].rows[0].accessory: expected a string, found a number"),
        (#"{"txt": "x"}"#, #"$.sections[0].rows[0]: unknown field "txt""#),
        (#"{"id": "u s a"}"#, "$.sections[0].rows[0].id: id must match [A-Za-z0-9_-]{1,64}"),
        (#"{"id": ""}"#, "$.sections[0].rows[0].id: id must match [A-Za-z0-9_-]{1,64}"),
        (#"{"id": 7}"#, "$.sections[0].rows[0].id: expected a string, found a number"),
        (
            #"{"indentationLevel": 17}"#,
            "$.sections[0].rows[0].indentationLevel: expected an integer from 0 to 16, found 17"
        ),
        (
            #"{"indentationLevel": -1}"#,
            "$.sections[0].rows[0].indentationLevel: expected an integer from 0 to 16, found -1"
        ),
        (#"{"indentationLevel": 1.5}"#, "$.sections[0].rows[0].indentationLevel: expected an integer, found 1.5"),
        (
            #"{"height": 0}"#,
            "$.sections[0].rows[0].height: expected a number greater than 0 and at most 10000, found 0"
        ),
        (
            #"{"height": -3.5}"#,
            "$.sections[0].rows[0].height: expected a number greater than 0 and at most 10000, found -3.5"
        ),
        (
            #"{"height": 10000.5}"#,
            "$.sections[0].rows[0].height: expected a number greater than 0 and at most 10000, found 10000.5"
        ),
        (#"{"height": "44"}"#, "$.sections[0].rows[0].height: expected a number, found a string"),
        (#"{"style": "custom"}"#, #"$.sections[0].rows[0]: a row of style "custom" needs a template"#),
        (
            #"{"style": "custom", "template": "a.b"}"#,
            "$.sections[0].rows[0].template: template must match [A-Za-z0-9_-]{1,64}"
        ),
        (#"{"fields": []}"#, "$.sections[0].rows[0].fields: expected an object, found an array"),
        (
            #"{"fields": {"a b": 1}}"#,
            #"$.sections[0].rows[0].fields["a b"]: field name must match [A-Za-z0-9_-]{1,64}"#
        ),
        ("[]", "$.sections[0].rows[0]: expected an object, found an array"),
    ])
    func refusesABadRow(row: String, issue: String) throws {
        #expect(try CodingFixture.rowIssues(row) == [issue])
    }

    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>", "vbscript:x", "file:///etc/passwd",
        "mailto:someone@example.com", "java\tscript:alert(1)", " javascript:alert(1)",
    ])
    func refusesURLSchemes(url: String) throws {
        let json = String(decoding: JSONValue.string(url).jsonBytes, as: UTF8.self)
        for key in ["image", "link", "detailLink"] {
            let issues = try CodingFixture.rowIssues(#"{"\#(key)": \#(json)}"#)
            #expect(issues.count == 1)
            #expect(issues.first?.hasPrefix("$.sections[0].rows[0].\(key): URL ") == true, "\(issues)")
        }
        #expect(
            try CodingFixture.rowIssues(#"{"link": "javascript:alert(1)"}"#) == [
                "$.sections[0].rows[0].link: URL scheme not allowed (use http, https or a path)"
            ])
    }

    @Test(arguments: [
        ("//evil.example/x", "scheme-relative URL not allowed (use http, https or a path)"),
        ("/\\evil.example", "URL must not contain control characters or backslashes"),
        ("/a\nb", "URL must not contain control characters or backslashes"),
        (" //evil.example", "URL must not start or end with a space"),
        ("", "URL is empty (use null for none)"),
    ])
    func refusesURLsThatLeaveTheServer(url: String, message: String) throws {
        let json = String(decoding: JSONValue.string(url).jsonBytes, as: UTF8.self)
        #expect(try CodingFixture.rowIssues(#"{"image": \#(json)}"#) == ["$.sections[0].rows[0].image: \(message)"])
    }

    @Test(arguments: [
        "http://example.com/a.png", "HTTPS://example.com", "/public/flags/usa.png", "./a.png", "../a.png",
        "flags/usa.png", "a.png?x=1:2", "#anchor", "/path/with:colon",
    ])
    func allowsHTTPAndPaths(url: String) throws {
        let json = String(decoding: JSONValue.string(url).jsonBytes, as: UTF8.self)
        let row = try ModelDecoder.row(
            from: CodingFixture.parse(#"{"image": \#(json), "link": \#(json), "detailLink": \#(json)}"#))
        #expect(row.image == url && row.link == url && row.detailLink == url)
    }

    @Test func refusesDuplicateIDsWithBothPaths() throws {
        let issues = try CodingFixture.tableIssues(
            #"""
            {"id": "t", "sections": [
              {"id": "a", "rows": [{"id": "x"}, {}, {"id": "usa"}]},
              {"id": "a", "rows": [{"id": "y"}, {}, {}, {"id": "usa"}]},
              {"id": "x", "rows": [{"id": "x"}]}
            ]}
            """#)
        #expect(
            issues == [
                #"$.sections[1].id: duplicate section id "a" (also at $.sections[0])"#,
                #"$.sections[1].rows[3].id: duplicate row id "usa" (also at $.sections[0].rows[2])"#,
                #"$.sections[2].rows[0].id: duplicate row id "x" (also at $.sections[0].rows[0])"#,
            ])
    }

    @Test func theIDIndexOfADecodedTableHoldsEveryIDOnce() throws {
        let table = try ModelDecoder.table(
            from: CodingFixture.parse(
                #"""
                {"id": "t", "sections": [
                  {"rows": [{}, {}, {}]},
                  {"id": "b", "rows": [{"id": "x"}, {}, {"id": "y"}]},
                  {"rows": [{"id": "z"}]}
                ]}
                """#))
        #expect(table.ids.sectionIDs == ["b"])
        #expect(table.ids.rowIDs == ["x", "y", "z"])
        #expect(table.ids == TableIDIndex(table.sections))
    }

    @Test func refusesBadTables() throws {
        #expect(try CodingFixture.tableIssues("{}") == [#"$: missing required field "id""#])
        #expect(try CodingFixture.tableIssues("[]") == ["$: expected an object, found an array"])
        #expect(try CodingFixture.tableIssues(#"{"id": "a/b"}"#) == ["$.id: id must match [A-Za-z0-9_-]{1,64}"])
        #expect(
            try CodingFixture.tableIssues(#"{"id": "\#(String(repeating: "a", count: 65))"}"#) == [
                "$.id: id must match [A-Za-z0-9_-]{1,64}"
            ])
        #expect(
            try CodingFixture.tableIssues(#"{"id": "t", "style": "fancy"}"#) == [
                #"$.style: unknown value "fancy"; expected one of "plain", "grouped", "insetGrouped""#
            ])
        #expect(
            try CodingFixture.tableIssues(#"{"id": "t", "rowHeight": 0}"#) == [
                "$.rowHeight: expected a number greater than 0 and at most 10000, found 0"
            ])
        #expect(
            try CodingFixture.tableIssues(#"{"id": "t", "version": "7"}"#) == [
                "$.version: expected an integer, found a string"
            ])
        #expect(
            try CodingFixture.tableIssues(#"{"id": "t", "sections": {}}"#) == [
                "$.sections: expected an array, found an object"
            ])
        #expect(
            try CodingFixture.tableIssues(#"{"id": "t", "sections": [{"rows": {}}]}"#) == [
                "$.sections[0].rows: expected an array, found an object"
            ])
        #expect(
            try CodingFixture.tableIssues(#"{"id": "t", "sections": [{"indexTitle": 1, "rowz": []}]}"#) == [
                "$.sections[0].indexTitle: expected a string or null, found a number",
                #"$.sections[0]: unknown field "rowz""#,
            ])
    }

    @Test func refusesTextOverTheLimit() throws {
        let long = String(repeating: "é", count: 35_000)
        #expect(
            try CodingFixture.rowIssues(#"{"text": "\#(long)"}"#) == [
                "$.sections[0].rows[0].text: text is 70000 bytes; the limit is 65536"
            ])
        #expect(
            try CodingFixture.tableIssues(#"{"id": "t", "header": "\#(long)"}"#) == [
                "$.header: header is 70000 bytes; the limit is 65536"
            ])
        #expect(
            try CodingFixture.rowIssues(#"{"style": "custom", "template": "t", "fields": {"a": ["\#(long)"]}}"#) == [
                "$.sections[0].rows[0].fields.a[0]: field is 70000 bytes; the limit is 65536"
            ])
        let atLimit = String(repeating: "a", count: 65_536)
        #expect(try ModelDecoder.row(from: CodingFixture.parse(#"{"text": "\#(atLimit)"}"#)).text == atLimit)
    }

    @Test func bracketsKeysThatAreNotPlainNames() throws {
        let long = String(repeating: "a", count: 65_537)
        let row = #"{"style": "custom", "template": "t", "fields": {"my-key": "\#(long)", "2x": {"ok_1": "\#(long)"}}}"#
        #expect(
            try CodingFixture.rowIssues(row) == [
                #"$.sections[0].rows[0].fields["my-key"]: field is 65537 bytes; the limit is 65536"#,
                #"$.sections[0].rows[0].fields["2x"].ok_1: field is 65537 bytes; the limit is 65536"#,
            ])
    }

    @Test func limitsAreConfigurable() throws {
        let limits = ModelLimits(
            maxFieldBytes: 4, maxIDLength: 3, maxCustomFields: 1, maxIndentationLevel: 2, maxRowHeight: 100)
        let issues = try CodingFixture.tableIssues(
            #"""
            {"id": "abcd", "rowHeight": 101, "sections": [{"rows": [
              {"text": "hello", "indentationLevel": 3, "fields": {"a": 1, "b": 2}}]}]}
            """#, limits: limits)
        #expect(
            issues == [
                "$.id: id must match [A-Za-z0-9_-]{1,3}",
                "$.rowHeight: expected a number greater than 0 and at most 100, found 101",
                "$.sections[0].rows[0].text: text is 5 bytes; the limit is 4",
                "$.sections[0].rows[0].indentationLevel: expected an integer from 0 to 2, found 3",
                "$.sections[0].rows[0].fields: fields has 2 members; the limit is 1",
            ])
    }

    @Test func reportsEveryIssueNotJustTheFirst() throws {
        let issues = try CodingFixture.tableIssues(
            #"""
            {"title": 3, "style": "round", "colour": "red", "sections": [
              {"id": "bad id", "rows": [{"accessory": "arrow", "txt": "x"}, {"height": 0, "link": "javascript:x"}]},
              {"rows": [{"indentationLevel": 99}]}
            ]}
            """#)
        #expect(
            issues == [
                "$.title: expected a string or null, found a number",
                #"$.style: unknown value "round"; expected one of "plain", "grouped", "insetGrouped""#,
                #"$: unknown field "colour""#,
                "$.sections[0].id: id must match [A-Za-z0-9_-]{1,64}",
                #"$.sections[0].rows[0].accessory: unknown value "arrow"; expected one of "none", "disclosureIndicator", "detailDisclosureButton", "checkmark", "detailButton""#,
                #"$.sections[0].rows[0]: unknown field "txt""#,
                "$.sections[0].rows[1].height: expected a number greater than 0 and at most 10000, found 0",
                "$.sections[0].rows[1].link: URL scheme not allowed (use http, https or a path)",
                "$.sections[1].rows[0].indentationLevel: expected an integer from 0 to 16, found 99",
                #"$: missing required field "id""#,
            ])
    }

    @Test func capsTheNumberOfIssuesReported() throws {
        let rows = Array(repeating: #"{"accessory": "arrow"}"#, count: 30).joined(separator: ",")
        let issues = try CodingFixture.tableIssues(
            #"{"id": "t", "sections": [{"rows": [\#(rows)]}]}"#, limits: ModelLimits(maxIssues: 10))
        #expect(issues.count == 11)
        #expect(issues.last == "$: 20 more issues not shown")
    }

    @Test func refusesDuplicateTableIDsInAnArray() throws {
        let tables = #"[{"id": "a"}, {"id": "b"}, {"id": "a"}, {"id": 1}]"#
        let issues = try CodingFixture.issues(tables, ModelDecoder.tables(from:limits:))
        #expect(
            issues == [
                #"$[2].id: duplicate table id "a" (also at $[0])"#,
                "$[3].id: expected a string, found a number",
            ])
    }

    @Test func quotesHostileNamesSafely() throws {
        let issues = try CodingFixture.rowIssues(#"{"<b>\"": 1, "accessory": "\u0000<script>"}"#)
        #expect(
            issues == [
                #"$.sections[0].rows[0]: unknown field "\u003cb\u003e\"""#,
                #"$.sections[0].rows[0].accessory: unknown value "\u0000\u003cscript\u003e"; expected one of "none", "disclosureIndicator", "detailDisclosureButton", "checkmark", "detailButton""#,
            ])
    }
}
