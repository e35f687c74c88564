import SeededRandom
import JSON
import Testing

@Suite struct JSONWriterTests {
    private func text(_ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        write(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func placesCommasInObjectsAndArrays() {
        let json = text { writer in
            writer.beginObject()
            writer.key("a"); writer.integer(1)
            writer.key("b")
            writer.beginArray()
            writer.integer(1); writer.string("x"); writer.null()
            writer.beginObject(); writer.endObject()
            writer.beginArray(); writer.endArray()
            writer.bool(true)
            writer.endArray()
            writer.key("c"); writer.bool(false)
            writer.endObject()
        }
        #expect(json == #"{"a":1,"b":[1,"x",null,{},[],true],"c":false}"#)
    }

    /// A key made once writes what `key(String)` writes, escapes and commas included,
    /// first in its object or not.
    @Test(arguments: ["id", "", "a\"b\\c", "<script>&", "line\nbreak\u{2028}", "Zoë"])
    func keysMadeOnceWriteWhatKeysWrite(name: String) {
        let made = JSONKey(name)
        func document(key: (inout JSONWriter) -> Void) -> String {
            text { writer in
                writer.beginObject()
                key(&writer); writer.integer(1)
                key(&writer); writer.string("x")
                writer.beginArray()
                writer.object {
                    key(&$0); $0.null()
                }
                writer.endArray()
                writer.endObject()
            }
        }
        #expect(document { $0.key(made) } == document { $0.key(name) })
    }

    @Test func closureHelpersNest() {
        let json = text { writer in
            writer.object { object in
                object.member("list") { list in
                    list.array { elements in
                        elements.integer(1)
                        elements.object { $0.member("k") { $0.string("v") } }
                    }
                }
                object.member("n") { $0.double(nil) }
                object.member("s") { $0.string(nil) }
            }
        }
        #expect(json == #"{"list":[1,{"k":"v"}],"n":null,"s":null}"#)
    }

    @Test func writesRawValuesWithCommas() {
        let json = text { writer in
            writer.beginArray()
            writer.rawValue(Array(#"{"version":1}"#.utf8))
            writer.rawValue(Array(#"{"version":2}"#.utf8))
            writer.endArray()
        }
        #expect(json == #"[{"version":1},{"version":2}]"#)
    }

    @Test(arguments: [
        (0, "0"), (7, "7"), (-7, "-7"), (10, "10"), (44, "44"), (1_000_000, "1000000"),
        (Int.max, "9223372036854775807"), (Int.min, "-9223372036854775808"),
    ])
    func writesIntegers(value: Int, expected: String) {
        #expect(text { $0.integer(value) } == expected)
    }

    @Test(arguments: [
        (44.0, "44"), (0.0, "0"), (-0.0, "-0"), (-3.0, "-3"), (0.5, "0.5"), (0.1, "0.1"),
        (44.5, "44.5"), (1e21, "1e+21"), (1e-7, "1e-07"), (123.456, "123.456"),
        (9_007_199_254_740_991.0, "9007199254740991"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        (.leastNonzeroMagnitude, "5e-324"), (.infinity, "null"), (.nan, "null"),
    ])
    func writesDoublesInShortestForm(value: Double, expected: String) {
        #expect(text { $0.double(value) } == expected)
    }

    @Test func doublesReadBackExactly() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<10_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            let parsed = try JSONParser().parse(text { $0.double(value) })
            #expect(
                parsed.doubleValue.map { $0 == value && $0.sign == value.sign } == true,
                "\(value) read back as \(parsed)")
        }
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote \" backslash \\ slash /", #""quote \" backslash \\ slash /""#),
        ("line\nreturn\rtab\t", #""line\nreturn\rtab\t""#),
        ("\u{0}\u{1}\u{8}\u{C}\u{1F}\u{7F}", #""\u0000\u0001\u0008\u000c\u001f\#u{7F}""#),
        ("</script><b>&amp;", #""\u003c/script\u003e\u003cb\u003e\u0026amp;""#),
        ("a\u{2028}b\u{2029}c", #""a\u2028b\u2029c""#),
        ("é € 😀 中", #""é € 😀 中""#),
        ("\u{2027}\u{202A}", "\"\u{2027}\u{202A}\""),
        ("", #""""#),
    ])
    func escapesStrings(value: String, expected: String) {
        #expect(text { $0.string(value) } == expected)
    }

    @Test func escapedOutputHasNoRawLineBreakOrMarkup() throws {
        let hostile = "<script>alert(\"x\")</script>\n\r\u{2028}\u{2029}&'\\"
        let json = text { $0.string(hostile) }
        for forbidden: Character in ["<", ">", "&", "\n", "\r", "\u{2028}", "\u{2029}"] {
            #expect(!json.contains(forbidden))
        }
        #expect(try JSONParser().parse(json) == .string(hostile))
    }

    @Test func escapesKeysToo() {
        #expect(text { $0.object { $0.member("<\"k\">") { $0.integer(1) } } } == #"{"\u003c\"k\"\u003e":1}"#)
    }

    @Test func writesValuesThatReadBackEqual() throws {
        let document = #"""
            {"id": "x", "n": [0, -1, 2.5, 1e300, true, false, null],
             "nested": {"empty": {}, "list": [[], [{}]], "text": "a\"b\\c\n\u0000 é 😀 <&>"}}
            """#
        let value = try JSONParser().parse(document)
        #expect(try JSONParser().parse(value.jsonBytes) == value)
        #expect(try value.jsonBytes == JSONParser().parse(value.jsonBytes).jsonBytes)
    }

    @Test func integralDoublesReadBackAsIntegers() throws {
        #expect(try JSONParser().parse(JSONValue.double(44).jsonBytes) == .integer(44))
    }

    @Test func namesKinds() {
        #expect(JSONValue.string("").kindDescription == "a string")
        #expect(JSONValue.integer(1).kindDescription == "a number")
        #expect(JSONValue.double(1.5).kindDescription == "a number")
        #expect(JSONValue.bool(true).kindDescription == "a boolean")
        #expect(JSONValue.null.kindDescription == "null")
        #expect(JSONValue.array([]).kindDescription == "an array")
        #expect(JSONValue.object(JSONObject()).kindDescription == "an object")
    }
}
