@testable import TableModel

/// Tables for the harnesses: one fixed table, and small tables read from input.
public enum FuzzTables {
    /// Section 0 `a0…a6` (the classic example), section 1 `b0 b1`, section 2
    /// three rows without ids, section 3 empty without an id, section 4 33 rows
    /// (two leaves of the row tree, so edits split and merge them).
    public static let fixed = Table(
        id: "fixed", title: "Fixed", version: 5,
        sections: [
            Section(id: "a", header: "A", rows: (0..<7).map { Row(id: "a\($0)", text: "A\($0)") }),
            Section(id: "b", header: "B", footer: "End", rows: (0..<2).map { Row(id: "b\($0)", text: "B\($0)") }),
            Section(header: "Plain", rows: ["x", "y", "x"].map { Row(text: $0) }),
            Section(),
            Section(id: "big", rows: (0..<33).map { Row(id: "g\($0)", text: "G\($0)") }),
        ])

    /// A table of up to 5 sections of up to 8 rows. Ids come from small pools
    /// (`s0…s7`, `r0…r23`) and texts from a few words, so two tables read from
    /// one input share many sections and rows, some equal, some changed; ids
    /// stay unique within the table, as validation guarantees.
    public static func table(_ reader: inout ByteReader) -> Table {
        var sectionIDs = Set<String>()
        var rowIDs = Set<String>()
        func fresh(_ prefix: String, _ pool: Int, _ used: inout Set<String>) -> String? {
            let choice = reader.below(pool + pool / 4)
            guard choice < pool else { return nil }
            let id = "\(prefix)\(choice)"
            return used.insert(id).inserted ? id : nil
        }
        let sections = (0..<reader.below(6)).map { _ in
            let id = fresh("s", 8, &sectionIDs)
            let header = reader.pick([nil, "A", "B"])
            let rows = (0..<reader.below(9)).map { _ in
                Row(
                    id: fresh("r", 24, &rowIDs),
                    text: reader.pick(["x", "y", "z", ""]),
                    accessory: reader.chance(20) ? .checkmark : .none,
                    selected: reader.chance(10))
            }
            return Section(id: id, header: header, rows: rows)
        }
        return Table(
            id: "t", title: reader.pick([nil, "T", "U"]), style: reader.pick(TableStyle.allCases),
            rowHeight: reader.chance(20) ? 60 : 44, allowsSelection: !reader.chance(10), sections: sections)
    }

    /// Fails the run when `table` breaks an invariant every table keeps: ids
    /// unique, the id index exact, every row tree sound.
    public static func requireSound(_ table: Table, _ context: @autoclosure () -> String) {
        var sectionIDs = Set<String>()
        var rowIDs = Set<String>()
        for (index, section) in table.sections.enumerated() {
            if let id = section.id {
                require(sectionIDs.insert(id).inserted, "section id \(id) twice; \(context())")
            }
            for row in section.rows {
                if let id = row.id { require(rowIDs.insert(id).inserted, "row id \(id) twice; \(context())") }
            }
            let problems = section.rows.invariantViolations()
            require(problems.isEmpty, "row tree of section \(index): \(problems); \(context())")
        }
        require(
            Set(table.ids.sectionIDs) == sectionIDs && Set(table.ids.rowIDs) == rowIDs,
            "id index out of step; \(context())")
    }
}
