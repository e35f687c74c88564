import JSON
import Testing

@Suite struct JSONMergePatchTests {
    let parser = JSONParser()

    /// RFC 7396 Appendix A, every example: original, patch, result.
    static let appendixA: [(String, String, String)] = [
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
        (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
        (#"{"a":"foo"}"#, #"null"#, #"null"#),
        (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
        (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
    ]

    @Test(arguments: appendixA)
    func mergesAsRFC7396AppendixA(_ example: (original: String, patch: String, result: String)) throws {
        let original = try parser.parse(example.original)
        let patch = try parser.parse(example.patch)
        #expect(original.mergePatched(by: patch) == (try parser.parse(example.result)))
    }

    /// RFC 7396 §3: nested members changed and removed, arrays replaced whole.
    @Test func mergesTheSection3Example() throws {
        let original = try parser.parse(
            #"{"title":"Goodbye!","author":{"givenName":"John","familyName":"Doe"},"tags":["example","sample"],"content":"This will be unchanged"}"#
        )
        let patch = try parser.parse(
            #"{"title":"Hello!","phoneNumber":"+01-123-456-7890","author":{"familyName":null},"tags":["example"]}"#)
        let expected = try parser.parse(
            #"{"title":"Hello!","author":{"givenName":"John"},"tags":["example"],"content":"This will be unchanged","phoneNumber":"+01-123-456-7890"}"#
        )
        #expect(original.mergePatched(by: patch) == expected)
    }

    @Test func keepsMembersInPlaceAndAppendsNewOnes() throws {
        let original = try parser.parse(#"{"z":1,"a":2,"m":3}"#)
        let merged = original.mergePatched(by: try parser.parse(#"{"a":20,"b":4,"z":null}"#))
        guard case .object(let object) = merged else { Issue.record("not an object"); return }
        #expect(object.keys == ["a", "m", "b"])
        #expect(object["a"] == .integer(20))
    }

    @Test func anEmptyPatchChangesNothing() throws {
        let original = try parser.parse(#"{"a":{"b":[1,{"c":null}]},"d":null}"#)
        #expect(original.mergePatched(by: .object(JSONObject())) == original)
    }
}
