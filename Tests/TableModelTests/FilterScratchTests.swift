import JSON
import Testing
@testable import TableModel

/// `PreparedFilter.holds(at:in:scratch:)`, the pass over a table's rows that
/// folds a row's text into one buffer, answers as the filter does for the
/// row's `ViewValue`: every key, every operator, texts, numbers, booleans,
/// missing values, non-ASCII text, and a buffer left longer by the row before.
@Suite struct FilterScratchTests {
    static let section = Section(id: "Süd", rows: [])
    static let rows: [Row] = [
        Row(id: "a1", text: "Élan 10", detail: "x", fields: JSONObject([JSONMember("f", .string("Straße 2"))])),
        Row(id: "b", text: "elan 9", fields: JSONObject([JSONMember("f", .integer(12))])),
        Row(
            text: "ZEBRA", detail: "a much longer detail than the rest",
            fields: JSONObject([JSONMember("f", .bool(true))])),
        Row(text: "", fields: JSONObject([JSONMember("f", .null)])),
        Row(text: "Item 2", detail: "Y", fields: JSONObject([JSONMember("f", .string("strasse 10"))])),
    ]

    @Test func answersAsTheRowsViewValueDoes() {
        let keys: [ViewKey] = [.text, .detail, .id, .section, .field("f"), .field("missing")]
        let values = ["elan 10", "Elan", "strasse", "12", "true", "", "item 10", "süd", "x"]
        var scratch: [UInt8] = []
        var checked = 0
        for key in keys {
            for op in ViewFilter.Operator.allCases {
                for value in values {
                    let filter = PreparedFilter(ViewFilter(key: key, op: op, value: value))
                    for row in Self.rows {
                        let expected = filter.holds(for: ViewValue(key, of: row, in: Self.section))
                        let held = withUnsafePointer(to: row) {
                            filter.holds(at: $0, in: Self.section, scratch: &scratch)
                        }
                        #expect(held == expected)
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == keys.count * ViewFilter.Operator.allCases.count * values.count * Self.rows.count)
    }
}
