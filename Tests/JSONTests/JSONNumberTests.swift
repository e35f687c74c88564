import Foundation
import JSON
import SeededRandom
import Testing

/// Numbers keep the literal they were written with, and order by exact value.
@Suite struct JSONNumberTests {
    @Test(arguments: [
        "1.50", "1e3", "1E+3", "-0", "-0.0", "0.10", "12345678901234567890", "-9223372036854775809", "2.0", "5e-324",
    ])
    func literalsAreWrittenBackAsRead(literal: String) throws {
        let value = try JSONParser().parse(literal)
        guard case .number(let number) = value else {
            Issue.record("\(literal) read as \(value)")
            return
        }
        #expect(number.literal == literal)
        #expect(String(decoding: value.jsonBytes, as: UTF8.self) == literal)
        #expect(try JSONParser().parse("[\(literal)]") == .array([value]))
    }

    @Test func plainIntegersStayIntegers() throws {
        #expect(try JSONParser().parse("42") == .integer(42))
        #expect(try JSONParser().parse("-7") == .integer(-7))
        #expect(try JSONParser().parse("9223372036854775807") == .integer(.max))
        #expect(JSONValue.number(literal: "0") == .integer(0))
        #expect(JSONValue.number(literal: "-0") != .integer(0))
    }

    @Test(arguments: [
        "01234", "+5", " 7", "7 ", "1,5", "NaN", "Infinity", ".5", "5.", "1e", "--1", "", "0x10", "1_000",
    ])
    func onlyJSONLiteralsAreNumbers(text: String) {
        #expect(JSONValue.number(literal: text) == nil)
    }

    @Test func computedDoublesAreWrittenShortest() {
        #expect(JSONValue.double(44) == .integer(44))
        #expect(JSONValue.double(-0.0).jsonBytes == Array("-0".utf8))
        #expect(JSONValue.double(1.5).jsonBytes == Array("1.5".utf8))
        #expect(JSONValue.double(1e300).jsonBytes == Array("1e+300".utf8))
        #expect(JSONValue.double(.infinity) == .null)
        #expect(JSONValue.double(1.5) == JSONValue.number(literal: "1.5"))
    }

    @Test(arguments: [
        ("1.50", "1.5", JSONNumber.Ordering.same), ("1e3", "1000", .same), ("-0", "0", .same),
        ("0.0e9", "-0.000", .same),
        ("12345678901234567890", "12345678901234567891", .before), ("9007199254740993", "9007199254740992", .after),
        ("-1", "1", .before), ("-2", "-1", .before), ("-1.5", "-1.25", .before), ("0.001", "1e-3", .same),
        ("1e-400", "0", .after), ("-1e-400", "0", .before), ("1e400", "1e399", .after), ("99.9", "1e2", .before),
        ("123.45", "123.4500001", .before), ("10", "9.99999999999999999999", .after),
    ])
    func ordersByExactValue(first: String, second: String, expected: JSONNumber.Ordering) {
        #expect(JSONNumber.compare(first, second) == expected)
        let reversed: JSONNumber.Ordering = expected == .same ? .same : (expected == .before ? .after : .before)
        #expect(JSONNumber.compare(second, first) == reversed)
    }

    /// The exact order agrees with `Decimal`'s (Foundation, an independent
    /// implementation) on random literals of up to 30 digits.
    @Test func ordersAsFoundationsDecimalDoes() {
        var generator = SeededGenerator(seed: 53)
        func literal() -> String {
            let digits = (0..<Int.random(in: 1...30, using: &generator)).map { _ in
                String(Int.random(in: 0...9, using: &generator))
            }
            var text = digits.joined().drop { $0 == "0" }.description
            if text.isEmpty { text = "0" }
            if Bool.random(using: &generator), text.count > 1 {
                let point = Int.random(in: 1..<text.count, using: &generator)
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -20...20, using: &generator))" }
            return (Bool.random(using: &generator) ? "-" : "") + text
        }
        for _ in 0..<5_000 {
            let (a, b) = (literal(), literal())
            guard let x = Decimal(string: a, locale: Locale(identifier: "en_US_POSIX")),
                let y = Decimal(string: b, locale: Locale(identifier: "en_US_POSIX"))
            else { continue }
            let expected: JSONNumber.Ordering = x < y ? .before : (x > y ? .after : .same)
            #expect(JSONNumber.compare(a, b) == expected, "\(a) vs \(b)")
        }
    }
}
