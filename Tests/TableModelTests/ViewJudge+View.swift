@testable import TableModel

extension ViewJudge {
    /// A row of the table with where it is (its place orders ties).
    private struct Placed {
        let row: Row
        let section: Section
        let place: (section: Int, row: Int)
    }

    /// The sections of `query`'s view of `table`, as docs/API.md "Views" says:
    /// the rows every word and filter holds for; without `group`, each table
    /// section with its rows sorted (left out when empty while `q` or a filter
    /// is given); with `group`, one section for each run of one value in the
    /// order of group value, sort keys and place, headed from its first row:
    /// text as that row spells it, with that spelling's first letter as index
    /// title; a number by its literal, with the range it is in as index title;
    /// a section of the table by its header and index title; the group's
    /// value, as the row holds it, with it.
    static func sections(of table: Table, _ query: TableQuery) -> [Section] {
        var selected: [[Placed]] = []
        for (s, section) in table.sections.enumerated() {
            selected.append(
                Array(section.rows).enumerated().compactMap { r, row in
                    found(query.words, in: row) && query.filters.allSatisfy { holds($0, row, in: section) }
                        ? Placed(row: row, section: section, place: (s, r)) : nil
                })
        }
        guard let group = query.group else {
            let selects = !query.words.isEmpty || !query.filters.isEmpty
            return table.sections.indices.compactMap { s in
                guard !(selects && selected[s].isEmpty) else { return nil }
                var section = table.sections[s]
                section.rows = RowList(insertionSorted(selected[s], by: query.sort).map(\.row))
                return section
            }
        }
        let rows = insertionSorted(selected.flatMap { $0 }, by: [group] + query.sort)
        var sections: [Section] = []
        var runValue: Value?
        for placed in rows {
            let value = self.value(group.key, of: placed.row, in: placed.section)
            if let last = sections.indices.last, compare(runValue, value, descending: false) == .same {
                sections[last].rows.append(placed.row)
                continue
            }
            runValue = value
            sections.append(heading(group.key, value, first: placed))
        }
        return sections
    }

    /// A group section holding its first row, headed as docs/API.md says.
    private static func heading(_ key: ViewKey, _ value: Value?, first placed: Placed) -> Section {
        var section = Section(rows: [placed.row])
        guard let value else { return section }
        switch (key, value) {
        case (.section, .text(let id)):
            section.header = placed.section.header ?? id
            section.indexTitle = placed.section.indexTitle ?? indexTitle(.text(section.header!))
            section.groupValue = .string(id)
        case (.field(let name), .number(let decimal, let literal)):
            section.header = literal
            section.indexTitle = rangeTitle(decimal)
            section.groupValue = placed.row.fields[name]
        case (.field(let name), _):
            section.header = value.display
            section.indexTitle = indexTitle(value)
            section.groupValue = placed.row.fields[name]
        default:
            section.header = value.display
            section.indexTitle = indexTitle(value)
            section.groupValue = .string(value.display)
        }
        return section
    }

    /// The range of a number: its first digit followed by zeros to its place,
    /// every three trailing zeros (up to four times) a K, M, B or T; past
    /// 10^15 the digit and its power of ten; below 1 in magnitude `0`.
    static func rangeTitle(_ number: Decimal) -> String {
        guard let first = number.digits.first, number.point > 0 else { return "0" }
        let sign = number.negative ? "-" : ""
        guard number.point <= 15 else { return "\(sign)\(first)E\(number.point - 1)" }
        var written = String(first) + String(repeating: "0", count: number.point - 1)
        var units = ["K", "M", "B", "T"][...]
        var unit = ""
        while written.hasSuffix("000"), let next = units.popFirst() {
            written.removeLast(3)
            unit = next
        }
        return sign + written + unit
    }

    /// The first letter of a value, its marks dropped, uppercased; `#` for any
    /// other ASCII character (a digit, a sign, a space); none for an empty value.
    static func indexTitle(_ value: Value) -> String? {
        guard let first = value.display.first else { return nil }
        guard let folded = fold(value.display).unicodeScalars.first, folded.isASCII else {
            return String(first).uppercased()
        }
        return ("a"..."z").contains(Character(folded)) ? String(folded).uppercased() : "#"
    }

    /// `rows` ordered by `keys` (missing values last), ties by place: an
    /// insertion sort, each row put after every row not after it.
    private static func insertionSorted(_ rows: [Placed], by keys: [ViewSortKey]) -> [Placed] {
        func before(_ a: Placed, _ b: Placed) -> Bool {
            for key in keys {
                let order = compare(
                    value(key.key, of: a.row, in: a.section), value(key.key, of: b.row, in: b.section),
                    descending: key.descending)
                if order != .same { return order == .before }
            }
            return a.place < b.place
        }
        var sorted: [Placed] = []
        for row in rows {
            var at = sorted.count
            while at > 0 && before(row, sorted[at - 1]) { at -= 1 }
            sorted.insert(row, at: at)
        }
        return sorted
    }
}
