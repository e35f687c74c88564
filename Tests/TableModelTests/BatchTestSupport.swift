import Testing
@testable import TableModel
import SeededRandom

/// Small tables whose rows are named by their text (`A0`, `A1`, …), for batch tests.
enum BatchFixture {
    /// A row whose text is `text`.
    static func row(_ text: String, id: String? = nil) -> Row {
        Row(id: id, text: text)
    }

    /// A section of `count` rows named `prefix0`, `prefix1`, ….
    static func section(_ prefix: String, _ count: Int, id: String? = nil) -> Section {
        Section(id: id, header: prefix, rows: (0..<count).map { row("\(prefix)\($0)") })
    }

    /// A table whose section `i` holds `counts[i]` rows named `A…`, `B…`, `C…`, ….
    static func table(_ counts: [Int]) -> Table {
        let names = ["A", "B", "C", "D", "E", "F", "G", "H"]
        return Table(id: "t", sections: counts.enumerated().map { section(names[$0.offset], $0.element) })
    }

    /// The text of every row, section by section.
    static func texts(_ table: Table) -> [[String]] {
        table.sections.map { $0.rows.map(\.text) }
    }

    /// The headers of the sections, which name them in these tests.
    static func headers(_ table: Table) -> [String] {
        table.sections.map { $0.header ?? "" }
    }
}

/// Applies `batch` to a copy of `table` and expects it refused for `rule` with
/// exactly `detail`, the copy left equal to `table`.
func expectRefused(
    _ batch: Batch, on table: Table, _ rule: BatchError.Rule, _ detail: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var copy = table
    do {
        let applied = try copy.apply(batch)
        Issue.record("accepted \(applied), expected \(rule.rawValue): \(detail)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.type == rule.rawValue, sourceLocation: sourceLocation)
        #expect(error.detail == detail, sourceLocation: sourceLocation)
        #expect(error.rule == rule, sourceLocation: sourceLocation)
    }
    #expect(copy == table, "a refused batch changed the table", sourceLocation: sourceLocation)
}

/// Applies `batch` to a copy of `table`, expecting it accepted; answers the copy.
func applied(
    _ batch: Batch, to table: Table, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Table {
    var copy = table
    _ = try copy.apply(batch)
    #expect(copy.ids == TableIDIndex(copy.sections), "id index out of date", sourceLocation: sourceLocation)
    return copy
}
