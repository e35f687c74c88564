// Deriving a view from a table: NSFetchedResultsController's fetch.
//
// 1. Select: the rows every word of `q` is found in (folded, in the text, the
//    detail or a string field) and every filter holds for.
// 2. Without `group`: each section of the table keeps its selected rows, sorted
//    by `sort` (stable: ties keep the table's order); while `q` or a filter is
//    given, sections left with no row are left out.
// 3. With `group`: the selected rows of the whole table, ordered by the group's
//    value (rows without one last), then by `sort`, then by the table's order;
//    each run of one value is a section headed by that value (as the first of
//    its rows spells it) with the value's first letter as its index title
//    (`#` for a digit or sign).
//
// The view is a table with the table's id, properties and version; its rows
// are the table's rows, unchanged, ids and all. Cost: O(n·w) to select over n
// rows and w words, O(m log m) to sort the m selected rows.

extension TableQuery {
    /// The view of `table` this query describes: the table itself when the query is empty.
    public func view(of table: Table) -> Table {
        guard !isEmpty else { return table }
        let selection = RowSelection(self)
        var view = table
        let sections: [Section]
        if let group {
            sections = grouped(table, by: group, selection)
        } else {
            sections = table.sections.compactMap { section in
                let rows = sorted(selection.rows(of: section), in: section)
                return selectsRows && rows.isEmpty ? nil : section.withRows(rows)
            }
        }
        view.sections = sections
        view.ids = TableIDIndex(sections)
        return view
    }

    /// `rows` (of `section`) ordered by `sort`, ties in their order.
    private func sorted(_ rows: [Row], in section: Section) -> [Row] {
        guard !sort.isEmpty, rows.count > 1 else { return rows }
        let keys = rows.map { row in sort.map { ViewValue($0.key, of: row, in: section) } }
        let order = rows.indices.sorted { a, b in
            let result = Self.compare(keys[a], keys[b], by: sort)
            return result == .same ? a < b : result == .before
        }
        return order.map { rows[$0] }
    }

    private func grouped(_ table: Table, by group: ViewSortKey, _ selection: RowSelection) -> [Section] {
        struct Entry {
            let row: Row
            let keys: [ViewValue?]
        }
        var entries: [Entry] = []
        for section in table.sections {
            for row in selection.rows(of: section) {
                let keys = ([group] + sort).map { ViewValue($0.key, of: row, in: section) }
                entries.append(Entry(row: row, keys: keys))
            }
        }
        let descriptors = [group] + sort
        let order = entries.indices.sorted { a, b in
            let result = Self.compare(entries[a].keys, entries[b].keys, by: descriptors)
            return result == .same ? a < b : result == .before
        }
        var sections: [Section] = []
        var run: (value: ViewValue?, rows: [Row])?
        for index in order {
            let value = entries[index].keys[0]
            if let current = run, Self.compare(current.value, value, descending: false) == .same {
                run!.rows.append(entries[index].row)
                continue
            }
            if let current = run { sections.append(Self.groupSection(current.value, current.rows)) }
            run = (value, [entries[index].row])
        }
        if let current = run { sections.append(Self.groupSection(current.value, current.rows)) }
        return sections
    }

    private static func groupSection(_ value: ViewValue?, _ rows: [Row]) -> Section {
        guard let value else { return Section(rows: rows) }
        return Section(header: value.display, indexTitle: indexTitle(value), rows: rows)
    }

    /// The first letter of a group's value, uppercased; `#` for a digit or a sign.
    private static func indexTitle(_ value: ViewValue) -> String? {
        guard let first = value.display.first else { return nil }
        if let byte = value.folded.first, byte < 0x80 {
            let isLetter = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
            return isLetter ? String(UnicodeScalar(byte - 0x20)) : "#"
        }
        return String(first).uppercased()
    }

    /// Two rows' values for the descriptors, in order: the first that differs decides.
    private static func compare(_ left: [ViewValue?], _ right: [ViewValue?], by keys: [ViewSortKey]) -> Ordering {
        for (offset, key) in keys.enumerated() {
            let result = compare(left[offset], right[offset], descending: key.descending)
            if result != .same { return result }
        }
        return .same
    }

    /// Two values, rows without one last in either direction.
    private static func compare(_ left: ViewValue?, _ right: ViewValue?, descending: Bool) -> Ordering {
        switch (left, right) {
        case (nil, nil): return .same
        case (nil, _): return .after
        case (_, nil): return .before
        case (let left?, let right?):
            let result = left.compare(to: right)
            guard descending else { return result }
            return result == .before ? .after : (result == .after ? .before : .same)
        }
    }
}

/// The selecting half of a query (`q` and the filters), prepared once for a pass over a table.
struct RowSelection {
    let words: [[UInt8]]
    let filters: [PreparedFilter]

    init(_ query: TableQuery) {
        words = query.words.map(TextFolding.fold)
        filters = query.filters.map(PreparedFilter.init)
    }

    var selectsAll: Bool { words.isEmpty && filters.isEmpty }

    /// The rows of `section` in the view, in the table's order.
    func rows(of section: Section) -> [Row] {
        selectsAll ? Array(section.rows) : section.rows.filter { matches($0, in: section) }
    }

    /// Whether `row` of `section` is in the view.
    func matches(_ row: Row, in section: Section) -> Bool {
        for filter in filters where !filter.holds(for: ViewValue(filter.key, of: row, in: section)) {
            return false
        }
        guard !words.isEmpty else { return true }
        var texts = [TextFolding.fold(row.text)]
        if let detail = row.detail { texts.append(TextFolding.fold(detail)) }
        for member in row.fields.members {
            if case .string(let text) = member.value { texts.append(TextFolding.fold(text)) }
        }
        return words.allSatisfy { word in texts.contains { TextFolding.contains($0, word) } }
    }
}

extension Section {
    /// This section holding `rows` instead of its own.
    func withRows(_ rows: [Row]) -> Section {
        var section = self
        section.rows = RowList(rows)
        return section
    }
}
