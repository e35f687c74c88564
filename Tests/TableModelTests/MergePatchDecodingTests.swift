import JSON
import Testing

@testable import TableModel

/// `ModelDecoder.patchedRow` and `patchedSection`: a merge patch of the
/// document `GET` shows, decoded as a `PUT` body is, the id kept.
@Suite struct MergePatchDecodingTests {
    let row = Row(
        id: "r", text: "R", detail: "d",
        fields: JSONObject([JSONMember("a", .integer(1)), JSONMember("b", .bool(true))]))

    func patch(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

    @Test func changesOnlyTheMembersNamed() throws {
        let patched = try ModelDecoder.patchedRow(row, by: patch(#"{"text": "S", "fields": {"a": 2, "c": "x"}}"#))
        #expect(patched.text == "S")
        #expect(patched.detail == "d")
        #expect(
            patched.fields
                == JSONObject([
                    JSONMember("a", .integer(2)), JSONMember("b", .bool(true)), JSONMember("c", .string("x")),
                ]))
        #expect(patched.id == "r")
    }

    @Test func nullRemoves() throws {
        let patched = try ModelDecoder.patchedRow(row, by: patch(#"{"detail": null, "fields": {"b": null}}"#))
        #expect(patched.detail == nil)
        #expect(patched.fields == JSONObject([JSONMember("a", .integer(1))]))
        #expect(try ModelDecoder.patchedRow(row, by: patch(#"{"fields": null}"#)).fields.isEmpty)
    }

    @Test func anEmptyPatchGivesTheSameRow() throws {
        #expect(try ModelDecoder.patchedRow(row, by: patch("{}")) == row)
        let section = Section(id: "s", header: "H", footer: "F", indexTitle: "I")
        #expect(try ModelDecoder.patchedSection(section, by: patch("{}")) == section)
    }

    @Test func refusesWithTheJSONPathOfEachIssue() throws {
        #expect {
            try ModelDecoder.patchedRow(row, by: patch(#"{"id": "q", "height": "tall", "fields": {"a": null}}"#))
        } throws: { error in
            (error as? ValidationError)?.issues.map(\.path) == ["$.id", "$.height"]
        }
        #expect {
            try ModelDecoder.patchedRow(row, by: patch("[1]"))
        } throws: { error in
            (error as? ValidationError)?.issues.map(\.path) == ["$"]
        }
    }

    @Test func aSectionKeepsItsRowsOutOfThePatch() throws {
        let section = Section(id: "s", header: "H", footer: "F", rows: [row])
        let patched = try ModelDecoder.patchedSection(section, by: patch(#"{"footer": null, "indexTitle": "I"}"#))
        #expect(patched == Section(id: "s", header: "H", indexTitle: "I"))
        #expect {
            try ModelDecoder.patchedSection(section, by: patch(#"{"rows": [], "id": null}"#))
        } throws: { error in
            Set((error as? ValidationError)?.issues.map(\.path) ?? []) == ["$.id", "$.rows"]
        }
    }
}
