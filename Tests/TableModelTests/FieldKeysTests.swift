import JSON
import SeededRandom
import Testing
@testable import TableModel

/// An `eq` filter on a field passes over its leaves' keys (`FieldKeys`), kept
/// until a leaf's rows change; held here against each filter asked of each
/// row's value alone (`PreparedFilter.holds(for:)`), on random rows of every
/// kind of value, random filters and edits, with more fields than a leaf keeps.
@Suite("Views: a leaf's field keys")
struct FieldKeysTests {
    static let names = ["state", "count", "note", "kind", "zone", "tag"]
    static let values: [JSONValue] = [
        .string("S1"), .string("s1"), .string("S01"), .string("São"), .string("sao"), .string("1"),
        .string("true"), .string(""), .string("ﬁ"), .integer(1), .integer(12), JSONValue.number(literal: "1.0")!,
        .bool(true), .null, .array([.string("S1")]),
    ]
    static let filterValues = ["s1", "S1", "S01", "1", "01", "1.0", "true", "sao", "São", "", "fi", "12"]

    static func row(using random: inout SeededGenerator) -> Row {
        var members: [JSONMember] = []
        for name in names where Int.random(in: 0..<4, using: &random) > 0 {
            members.append(JSONMember(name, values.randomElement(using: &random)!))
        }
        return Row(text: "Row", fields: JSONObject(members))
    }

    static func filters(using random: inout SeededGenerator) -> [ViewFilter] {
        (0..<Int.random(in: 1...2, using: &random)).map { _ in
            ViewFilter(
                key: .field(names.randomElement(using: &random)!),
                op: Int.random(in: 0..<5, using: &random) == 0 ? .ne : .eq,
                value: filterValues.randomElement(using: &random)!)
        }
    }

    /// The positions in `range` whose rows every filter holds for, each asked of the row's value alone.
    static func reference(_ rows: [Row], _ filters: [ViewFilter], in range: Range<Int>) -> [Int] {
        range.filter { index in
            filters.allSatisfy { PreparedFilter($0).holds(for: ViewValue($0.key, of: rows[index], in: Section())) }
        }
    }

    static func selected(_ list: RowList, _ filters: [ViewFilter], in range: Range<Int>) -> [Int] {
        var found: [(position: Int, row: Row)] = []
        RowSelection(TableQuery(filters: filters)).forEachSelected(in: Section(rows: list), rows: range) {
            found.append(($0, $1.pointee))
        }
        #expect(found.allSatisfy { list[$0.position] == $0.row })
        return found.map(\.position)
    }

    @Test("a filter over the keys selects the rows each value alone holds for, in any range")
    func selectsWhatTheFilterHoldsFor() {
        var random = SeededGenerator(seed: 44_201)
        let rows = (0..<500).map { _ in Self.row(using: &random) }
        let list = RowList(rows)
        for _ in 0..<400 {
            let filters = Self.filters(using: &random)
            let bounds = (0..<2).map { _ in Int.random(in: 0...rows.count, using: &random) }
            let range = bounds.min()!..<bounds.max()!
            let expected = Self.reference(rows, filters, in: range)
            #expect(Self.selected(list, filters, in: range) == expected, "\(filters) in \(range)")
        }
    }

    @Test("an edited list is filtered as it is now, and a copy taken before as it was")
    func editsDropTheKeys() {
        var random = SeededGenerator(seed: 44_202)
        RandomRowEdit.run(using: &random, row: { Self.row(using: &$0) }) { list, rows, label, random in
            let filters = Self.filters(using: &random)
            let expected = Self.reference(rows, filters, in: 0..<rows.count)
            #expect(Self.selected(list, filters, in: 0..<list.count) == expected, "\(label): \(filters)")
        }
    }

    @Test("a leaf keeps the keys of at most four fields, and filters on others still select")
    func keepsFourFields() {
        var random = SeededGenerator(seed: 44_203)
        let rows = (0..<50).map { _ in Self.row(using: &random) }
        let list = RowList(rows)
        for name in Self.names {
            let filter = ViewFilter(key: .field(name), value: "S1")
            #expect(Self.selected(list, [filter], in: 0..<50) == Self.reference(rows, [filter], in: 0..<50))
        }
        list.root.visitLeafNodes(in: 0..<50) { leaf, _ in
            var kept: [String] = []
            for name in Self.names {
                leaf.withFieldKeys(name) { _, _ in }
            }
            var column = leaf.fieldKeysSlot.load(ordering: .acquiring)?.takeUnretainedValue()
            while let current = column {
                kept.append(current.name)
                column = current.next
            }
            #expect(kept == Array(Self.names.prefix(FieldKeys.kept)))
        }
    }
}
