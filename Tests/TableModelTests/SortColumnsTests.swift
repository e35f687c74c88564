import JSON
import SeededRandom
import Testing
@testable import TableModel

/// Deriving a view sorts by `SortColumns`; a live view places rows by
/// `TableQuery.compare` of their `ViewValue`s. Held here against each other
/// on every pair of random rows, for random keys in either direction, with
/// values of every kind: texts that fold alike or order by their digits,
/// numbers equal as `Double`s but not exactly, bools, and no value.
@Suite("Views: sort columns order rows as their values do")
struct SortColumnsTests {
    static let values: [JSONValue?] = [
        .string("Item 2"), .string("item 10"), .string("Item 02"), .string("São"), .string("sao"), .string(""),
        .string("10"), .integer(10), .integer(9_007_199_254_740_993), .integer(9_007_199_254_740_992),
        JSONValue.number(literal: "9007199254740992.5")!, JSONValue.number(literal: "1.0")!, .integer(1),
        JSONValue.number(literal: "-0.5")!, .bool(true), .bool(false), .string("true"), .null, nil,
    ]
    static let keys: [ViewKey] = [.text, .detail, .id, .section, .field("a"), .field("b")]

    static func row(_ index: Int, using random: inout SeededGenerator) -> Row {
        func text() -> String? {
            if case .string(let text)? = values.randomElement(using: &random)! { return text }
            return nil
        }
        var members: [JSONMember] = []
        for name in ["a", "b"] {
            if let value = values.randomElement(using: &random)! { members.append(JSONMember(name, value)) }
        }
        return Row(
            id: Bool.random(using: &random) ? "r\(index)" : nil, text: text() ?? "Row", detail: text(),
            fields: JSONObject(members))
    }

    @Test("every pair of rows compares as TableQuery.compare of their values", arguments: 0..<6)
    func ordersAsTheirValues(seed: Int) {
        var random = SeededGenerator(seed: UInt64(44_300 + seed))
        let sections = [Section(id: "s", rows: [Row]()), Section(rows: [Row]())]
        let rows = (0..<40).map { Self.row($0, using: &random) }
        let places = rows.indices.map { _ in sections.randomElement(using: &random)! }
        for _ in 0..<20 {
            let sort = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                ViewSortKey(key: Self.keys.randomElement(using: &random)!, descending: Bool.random(using: &random))
            }
            let values = rows.indices.map { index in
                sort.map { ViewValue($0.key, of: rows[index], in: places[index]) }
            }
            SortColumns(sort, count: rows.count) { ViewValue.read($1, of: rows[$0], in: places[$0]) }.withComparator {
                columns in
                for a in rows.indices {
                    for b in rows.indices {
                        #expect(columns.compare(a, b) == TableQuery.compare(values[a], values[b], by: sort), "\(sort)")
                        let first = TableQuery.compare(values[a][0], values[b][0], descending: false)
                        #expect(columns.sameFirst(a, b) == (first == .same))
                    }
                }
            }
        }
    }
}
