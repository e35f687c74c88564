import SeededRandom
import JSON
import Testing

@Suite struct JSONParserRefusalTests {
    let parser = JSONParser()

    private func refusal(_ text: String) -> JSONParseError? {
        #expect(throws: JSONParseError.self, "\(text.debugDescription) was accepted") { try parser.parse(text) }
    }

    private func refusal(bytes: [UInt8]) -> JSONParseError? {
        #expect(throws: JSONParseError.self) { try parser.parse(bytes) }
    }

    @Test func reportsLineColumnAndOffset() throws {
        let error = try #require(refusal(#"{"ab" 1}"#))
        #expect(error.reason == "expected ':' after object key")
        #expect(error.offset == 6)
        #expect(error.line == 1)
        #expect(error.column == 7)
        #expect(error.message == "malformed JSON at line 1, column 7: expected ':' after object key")
        #expect("\(error)" == error.message)

        let multiline = try #require(refusal("{\n  \"é\": [1,\n  2,,]\n}"))
        #expect(multiline.line == 3)
        #expect(multiline.column == 5)
        #expect(multiline.reason == "expected a value")
    }

    @Test(arguments: [
        ("", "unexpected end of input, expected a value"),
        ("   ", "unexpected end of input, expected a value"),
        ("[1, 2", "unexpected end of input, expected ',' or ']' after array element"),
        (#"{"a": 1"#, "unexpected end of input, expected ',' or '}' after object member"),
        (#"{"a""#, "unexpected end of input, expected ':' after object key"),
        ("[1,]", "expected a value"),
        (#"{"a": 1,}"#, "expected '\"' to begin an object key"),
        ("{a: 1}", "expected '\"' to begin an object key"),
        ("[1 2]", "expected ',' or ']' after array element"),
        (#"{"a": 1 "b": 2}"#, "expected ',' or '}' after object member"),
        ("[1] x", "unexpected text after the JSON value"),
        ("{} {}", "unexpected text after the JSON value"),
        ("1 2", "unexpected text after the JSON value"),
        ("nul", "expected a value"),
        ("tru", "expected a value"),
        ("True", "expected a value"),
        ("NaN", "expected a value"),
        ("Infinity", "expected a value"),
        ("'a'", "expected a value"),
        ("// comment\n1", "expected a value"),
        (#"{"a": 1, "a": 2}"#, #"duplicate key "a" in object"#),
        ("01", "leading zeros are not allowed in numbers"),
        ("-01", "leading zeros are not allowed in numbers"),
        ("-", "unexpected end of input, expected a digit after '-'"),
        ("-a", "expected a digit after '-'"),
        ("1.", "unexpected end of input, expected a digit after '.' in number"),
        ("1.e5", "expected a digit after '.' in number"),
        (".5", "expected a value"),
        ("+1", "expected a value"),
        ("1e", "unexpected end of input, expected a digit in the exponent of number"),
        ("1e+", "unexpected end of input, expected a digit in the exponent of number"),
        ("1e400", "number out of range"),
        ("-1e400", "number out of range"),
        ("\"abc", "unterminated string"),
        ("\"a\\nb", "unterminated string"),
        ("\"a\nb\"", "unescaped control character U+000A in string"),
        ("\"a\tb\"", "unescaped control character U+0009 in string"),
        ("\"\u{0}\"", "unescaped control character U+0000 in string"),
        (#""\x""#, "invalid escape sequence in string"),
        (#""\'""#, "invalid escape sequence in string"),
        (#""\u12""#, "invalid \\u escape: expected 4 hex digits"),
        (#""\u12G4""#, "invalid \\u escape: expected 4 hex digits"),
        (#""\ud800""#, "lone surrogate \\uD800 in string"),
        (#""\ud800x""#, "lone surrogate \\uD800 in string"),
        (#""\ud800\u0041""#, "lone surrogate \\uD800 in string"),
        (#""\udc00""#, "lone surrogate \\uDC00 in string"),
        (#""\ude00\ud83d""#, "lone surrogate \\uDE00 in string"),
    ])
    func refuses(text: String, reason: String) throws {
        let error = try #require(refusal(text))
        #expect(error.reason == reason, "\(text.debugDescription)")
    }

    @Test(
        arguments: [
            [0x22, 0xFF, 0x22],  // never valid in UTF-8
            [0x22, 0x80, 0x22],  // lone continuation byte
            [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
            [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong, 3 bytes
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8-encoded surrogate U+D800
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xE2, 0x82, 0x22],  // truncated sequence
            [0x22, 0xF0, 0x9F, 0x98],  // truncated at the end
        ] as [[UInt8]])
    func refusesInvalidUTF8(bytes: [UInt8]) throws {
        let error = try #require(refusal(bytes: bytes))
        #expect(error.reason == "invalid UTF-8")
        #expect(error.offset == 1)
    }

    @Test func refusesInvalidUTF8AfterAnEscape() throws {
        let error = try #require(refusal(bytes: Array(#""\n "#.utf8) + [0xC3, 0x28, 0x22]))
        #expect(error.reason == "invalid UTF-8")
        #expect(error.offset == 4)
    }

    @Test func refusesNonASCIIOutsideStrings() throws {
        let error = try #require(refusal("[1, é]"))
        #expect(error.reason == "expected a value")
        #expect(error.column == 5)
    }

    @Test func refusesAByteOrderMark() throws {
        let error = try #require(refusal(bytes: [0xEF, 0xBB, 0xBF] + Array("{}".utf8)))
        #expect(error.reason == "a byte order mark (U+FEFF) is not allowed before JSON text")
    }

    @Test func refusesDeepNestingWithoutRecursion() throws {
        let arrays = try #require(refusal(String(repeating: "[", count: 100_000)))
        #expect(arrays.reason == "nesting deeper than 64 levels")
        #expect(arrays.offset == 64)

        let objects = try #require(refusal(String(repeating: #"{"a":"#, count: 100_000)))
        #expect(objects.reason == "nesting deeper than 64 levels")

        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(throws: Never.self) { try JSONParser(maxDepth: 1000).parse(deep) }
    }

    @Test func namesTheDuplicateKeyAtItsPosition() throws {
        let error = try #require(refusal(#"{"id": 1, "id": 2}"#))
        #expect(error.offset == 10)
        #expect(error.column == 11)
    }

    @Test func survivesRandomGarbage() throws {
        var generator = SeededGenerator(seed: 2024)
        let alphabet = Array(#"{}[],:"\ 0123456789-+.eEtrufalsn"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            if let value = try? parser.parse(bytes) {
                // Anything accepted is written so that it reads back as the same
                // document (numbers keep their literals), which writes the same bytes again.
                let written = value.jsonBytes
                let reread = try parser.parse(written)
                #expect(reread == value, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(reread.jsonBytes == written)
            }
        }
    }

    @Test func survivesTruncationOfAValidDocument() throws {
        let document = Array(#"{"a": [1, 2.5e3, "x\u00e9\ud83d\ude00", {"b": null}], "c": true}"#.utf8)
        for length in 0..<document.count {
            #expect(throws: JSONParseError.self) { try parser.parse(document[..<length]) }
        }
        #expect(throws: Never.self) { try parser.parse(document) }
    }

    @Test func numbersBeyondRangeReadAsInfinityWhenAsked() throws {
        let parser = JSONParser(numbersBeyondRangeAreInfinite: true)
        let read = try parser.parse("[1e400, -1e400, 1.5]")
        #expect(read == .array(["1e400", "-1e400", "1.5"].map { JSONValue.number(literal: $0)! }))
        guard case .array(let numbers) = read else { return }
        #expect(numbers.map(\.doubleValue) == [.infinity, -.infinity, 1.5])
        #expect(try parser.parse(String(repeating: "9", count: 400)).doubleValue == .infinity)
        #expect(throws: JSONParseError.self) { try JSONParser().parse("1e400") }
    }
}
