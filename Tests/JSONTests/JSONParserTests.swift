import JSON
import Testing
import SeededRandom

@Suite struct JSONParserTests {
    let parser = JSONParser()

    @Test func parsesEveryKindOfValue() throws {
        let value = try parser.parse(#" {"a": [1, -2, 3.5, true, false, null, "x"], "b": {}, "c": []} "#)
        let expected = JSONValue.object(
            JSONObject([
                JSONMember(
                    "a",
                    .array([.integer(1), .integer(-2), .double(3.5), .bool(true), .bool(false), .null, .string("x")])),
                JSONMember("b", .object(JSONObject())),
                JSONMember("c", .array([])),
            ]))
        #expect(value == expected)
    }

    @Test func keepsMemberOrder() throws {
        let value = try parser.parse(#"{"z": 1, "a": 2, "m": 3}"#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["z", "a", "m"])
    }

    @Test func parsesScalarsAtTopLevel() throws {
        #expect(try parser.parse("42") == .integer(42))
        #expect(try parser.parse("\"hi\"") == .string("hi"))
        #expect(try parser.parse("null") == .null)
        #expect(try parser.parse(" \t\r\ntrue\n") == .bool(true))
    }

    @Test func parsesFromByteCollectionsOfEveryShape() throws {
        let text = #"{"k": ["v", 1]}"#
        let expected = try parser.parse(text)
        #expect(try parser.parse(Array(text.utf8)) == expected)
        #expect(try parser.parse(Array(text.utf8)[...]) == expected)
        // A collection without contiguous storage takes the copying path.
        #expect(try parser.parse(text.utf8.lazy.map { $0 }) == expected)
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("9223372036854775807", Double(Int.max)), ("-9223372036854775808", Double(Int.min)),
        ("9223372036854775808", 9_223_372_036_854_775_808), ("1.0", 1), ("44.0", 44), ("-0.5", -0.5), ("1e2", 100),
        ("1E+2", 100), ("25e-1", 2.5), ("0.1", 0.1), ("123456.789e3", 123_456_789),
        ("1.7976931348623157e308", .greatestFiniteMagnitude), ("5e-324", .leastNonzeroMagnitude), ("1e-400", 0),
        ("3.141592653589793238462643383279", .pi),
    ])
    func parsesNumbersKeepingTheirLiterals(text: String, value: Double) throws {
        let parsed = try parser.parse(text)
        #expect(parsed.doubleValue == value)
        #expect(parsed.doubleValue?.sign == value.sign)
        #expect(String(decoding: parsed.jsonBytes, as: UTF8.self) == text)
    }

    @Test func numbersReadAsTheStandardLibraryReadsThem() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = String(UInt64.random(in: 1...9, using: &generator))
            for _ in 1..<digits { text += String(UInt64.random(in: 0...9, using: &generator)) }
            let point = Int.random(in: 0..<text.count, using: &generator)
            if point > 0 { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            let exponent = Int.random(in: -30...30, using: &generator)
            text += "e\(exponent)"
            let parsed = try parser.parse(text)
            #expect(parsed.doubleValue == Double(text)!, "\(text)")
            #expect(parsed.jsonBytes == Array(text.utf8))
        }
    }

    @Test func decodesEscapes() throws {
        let value = try parser.parse(#""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC \ud83d\ude00""#)
        #expect(value == .string("\" \\ / \u{8} \u{C} \n \r \t A é € 😀"))
    }

    @Test func keepsMultibyteUTF8() throws {
        #expect(try parser.parse("\"é€😀中\"") == .string("é€😀中"))
        #expect(try parser.parse("\"a\\nb 😀\"") == .string("a\nb 😀"))
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let limited = JSONParser(maxDepth: 3)
        #expect(try limited.parse("[[[1]]]") == .array([.array([.array([.integer(1)])])]))
        #expect(try limited.parse(#"{"a": {"b": []}}"#) != .null)
        #expect(throws: JSONParseError.self) { try limited.parse("[[[[1]]]]") }
        #expect(throws: JSONParseError.self) { try limited.parse(#"{"a": {"b": [{}]}, "c": [[[[]]]]}"#) }
    }

    @Test func parsesLargeObjectsAndArrays() throws {
        let members = (0..<1000).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        guard case .object(let object) = try parser.parse("{\(members)}") else {
            Issue.record("not an object")
            return
        }
        #expect(object.members.count == 1000)
        #expect(object["k999"] == .integer(999))
        let elements = Array(repeating: "[1, 2]", count: 10_000).joined(separator: ",")
        guard case .array(let array) = try parser.parse("[\(elements)]") else {
            Issue.record("not an array")
            return
        }
        #expect(array.count == 10_000)
    }

    @Test func refusesDuplicateKeysInLargeObjects() {
        let members = (0..<50).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let error = #expect(throws: JSONParseError.self) { try parser.parse("{\(members), \"k7\": 0}") }
        #expect(error?.reason == #"duplicate key "k7" in object"#)
    }
}
