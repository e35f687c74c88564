// Deriving a view from a table: NSFetchedResultsController's fetch.
//
// 1. Select: the rows every word of `q` is found in (folded, in the text, the
//    detail or a string field) and every filter holds for.
// 2. Without `group`: each section of the table keeps its selected rows, sorted
//    by `sort` (stable: ties keep the table's order); while `q` or a filter is
//    given, sections left with no row are left out.
// 3. With `group`: the selected rows of the whole table, ordered by the group's
//    value (rows without one last), then by `sort`, then by the table's order;
//    each run of one value is a section headed by its first row
//    (`GroupHeading`: text as that row spells it, a number with its range as
//    index title, a table section by its own header).
//
// The view is a table with the table's id, properties and version; its rows
// are the table's rows, unchanged, ids and all. Cost: O(n·w) to select over n
// rows and w words, O(m log m) to sort the m selected rows.

extension TableQuery {
    /// The view of `table` this query describes: the table itself when the query is empty.
    public func view(of table: Table) -> Table { derive(from: table, labelled: false).view }

    /// The view of `table`; when `labelled`, with each view row's place in the
    /// table (`ViewLabel`), as `LiveView` keeps them. An empty query's view is
    /// the table itself, without labels.
    func derive(from table: Table, labelled: Bool) -> DerivedView {
        guard !isEmpty else { return DerivedView(view: table) }
        let selection = RowSelection(self)
        var derived = DerivedView(view: table)
        if let group {
            derived.sections = grouped(table, by: group, selection, labelled: labelled)
        } else {
            for (index, section) in table.sections.enumerated() {
                var (rows, labels) = selection.selected(in: section, at: index, labelled: labelled)
                if !sort.isEmpty && rows.count > 1 {
                    let order = sortOrder(rows, in: section)
                    Self.arrange(&rows, by: order)
                    if labelled { labels = order.map { labels[$0] } }
                }
                if selectsRows && rows.isEmpty { continue }
                derived.sections.append((section.withRows(moving: &rows), labels))
                derived.tableSections.append(index)
            }
        }
        derived.view.sections = derived.sections.map(\.section)
        // Built only if a batch from outside is applied to the view (`Table.idIndex`).
        derived.view.idIndex = nil
        return derived
    }

    /// The values `row` (of `section`) has for the keys of `sort`, in order:
    /// what the view orders rows by within a section.
    func sortKeys(of row: Row, in section: Section) -> [ViewValue?] {
        sort.map { ViewValue($0.key, of: row, in: section) }
    }

    /// The order of `rows` (of `section`) by `sort`, as their offsets; ties in their order.
    private func sortOrder(_ rows: [Row], in section: Section) -> [Int] {
        SortColumns(sort, count: rows.count) { ViewValue.read($1, of: rows[$0], in: section) }.withComparator {
            columns in
            rows.indices.sorted { a, b in
                let result = columns.compare(a, b)
                return result == .same ? a < b : result == .before
            }
        }
    }

    private func grouped(
        _ table: Table, by group: ViewSortKey, _ selection: RowSelection, labelled: Bool
    ) -> [(section: Section, labels: [UInt64])] {
        var rows: [Row] = []
        var sections: [Int] = []
        var labels: [UInt64] = []
        for (index, section) in table.sections.enumerated() {
            let selected = selection.selected(in: section, at: index, labelled: labelled)
            // The first section's rows are taken as they are, not copied again.
            if rows.isEmpty { rows = selected.rows } else { rows += selected.rows }
            sections += repeatElement(index, count: selected.rows.count)
            labels += selected.labels
        }
        let columns = SortColumns([group] + sort, count: rows.count) {
            ViewValue.read($1, of: rows[$0], in: table.sections[sections[$0]])
        }
        return columns.withComparator { columns in
            let order = rows.indices.sorted { a, b in
                let result = columns.compare(a, b)
                return result == .same ? a < b : result == .before
            }
            var grouped: [(section: Section, labels: [UInt64])] = []
            var start = 0
            while start < order.count {
                let first = order[start]
                var end = start + 1
                while end < order.count && columns.sameFirst(first, order[end]) { end += 1 }
                let run = order[start..<end]
                let heading = groupHeading(first: rows[first], in: table.sections[sections[first]])
                var runRows = run.map { rows[$0] }
                grouped.append((heading.section(moving: &runRows), labelled ? run.map { labels[$0] } : []))
                start = end
            }
            return grouped
        }
    }

    /// The heading of the group section whose first row, in the view's order,
    /// is `row` (of `section`): the one rule the read and a live view head a
    /// group by (`GroupHeading`, docs/API.md, "Views").
    func groupHeading(first row: Row, in section: Section) -> GroupHeading {
        group.map { GroupHeading($0.key, first: row, in: section) } ?? GroupHeading()
    }

    /// Rearranges `rows` so that `rows[k]` is the row that was at `order[k]`
    /// (`order` a permutation of their offsets), by swaps along each cycle of
    /// `order`: O(n), every row moved, none copied (no reference counted).
    static func arrange(_ rows: inout [Row], by order: [Int]) {
        var placed = [Bool](repeating: false, count: order.count)
        // A buffer's swap moves the two rows; an array's copies them.
        rows.withUnsafeMutableBufferPointer { rows in
            for start in order.indices where !placed[start] {
                // Along the cycle from `start`, `rows[k]` holds the row that was at `start`
                // until its own place, the cycle's last, is reached.
                var k = start
                while true {
                    placed[k] = true
                    let from = order[k]
                    if from == start { break }
                    rows.swapAt(k, from)
                    k = from
                }
            }
        }
    }

    /// Two rows' values for the descriptors, in order: the first that differs decides.
    static func compare(_ left: [ViewValue?], _ right: [ViewValue?], by keys: [ViewSortKey]) -> Ordering {
        for (offset, key) in keys.enumerated() {
            let result = compare(left[offset], right[offset], descending: key.descending)
            if result != .same { return result }
        }
        return .same
    }

    /// Two values, rows without one last in either direction.
    static func compare(_ left: ViewValue?, _ right: ViewValue?, descending: Bool) -> Ordering {
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
    /// The query's words, folded, as a pass over a table reads them; nil without words.
    private let search: SearchWords?
    let filters: [PreparedFilter]

    init(_ query: TableQuery) {
        search = query.words.isEmpty ? nil : SearchWords(query.words.map(TextFolding.fold))
        filters = query.filters.map(PreparedFilter.init)
    }

    var selectsAll: Bool { search == nil && filters.isEmpty }

    /// The rows of `section` (the table's `index`-th) in the view, in the
    /// table's order; when `labelled`, with their places (`ViewLabel`).
    ///
    /// Each row is read in place, and only those in the view are copied out.
    /// With words to find, the rows' texts are read from their leaves'
    /// `SearchText`, and a row's own properties only for the filters.
    func selected(in section: Section, at index: Int, labelled: Bool) -> (rows: [Row], labels: [UInt64]) {
        if selectsAll && !labelled { return (Array(section.rows), []) }
        var rows: [Row] = []
        var labels: [UInt64] = []
        forEachSelected(in: section, rows: 0..<section.rows.count) { position, row in
            rows.append(row.pointee)
            if labelled { labels.append(ViewLabel.of(row: position, section: index)) }
        }
        return (rows, labels)
    }

    /// Calls `body` with the position and address of each row of `section`
    /// in `range` that is in the view, in order; the address is valid during
    /// the call only. Nothing is copied: the filters fold each row's text into
    /// one buffer reused for the whole pass. Without words, an `eq` filter on
    /// a field passes over its leaves' keys (`FieldKeys`) rather than the rows.
    func forEachSelected(
        in section: Section, rows range: Range<Int>, _ body: (Int, UnsafePointer<Row>) -> Void
    ) {
        var scratch: [UInt8] = []
        if let search {
            section.rows.forEachRow(in: range, containing: search) { position, row in
                if filtersHold(at: row, in: section, scratch: &scratch) { body(position, row) }
            }
        } else if let (field, key) = filters.lazy.compactMap(\.indexed).first {
            // The leaves' keys of the field leave out the rows that filter
            // cannot hold for; the filters read the others (`FieldKeys`).
            section.rows.forEachRow(in: range, field: field, key: key) { position, row in
                if filtersHold(at: row, in: section, scratch: &scratch) { body(position, row) }
            }
        } else {
            var position = range.lowerBound
            section.rows.forEachRowAddress(in: range) { row in
                if filtersHold(at: row, in: section, scratch: &scratch) { body(position, row) }
                position += 1
            }
        }
    }

    /// Whether `row` of `section` is in the view: its texts folded as a
    /// `SearchText` holds them, and the words looked for as a pass over a table does.
    func matches(_ row: Row, in section: Section) -> Bool {
        withUnsafePointer(to: row) { row in
            var scratch: [UInt8] = []
            guard filtersHold(at: row, in: section, scratch: &scratch) else { return false }
            guard let search else { return true }
            var texts: [UInt8] = []
            SearchText.append(row, to: &texts)
            return texts.withUnsafeBufferPointer(search.allFound)
        }
    }

    private func filtersHold(at row: UnsafePointer<Row>, in section: Section, scratch: inout [UInt8]) -> Bool {
        filters.allSatisfy { $0.holds(at: row, in: section, scratch: &scratch) }
    }
}

/// A view as `TableQuery.derive` makes it: the view, and for each of its
/// sections the section and its rows' labels (empty unless asked for) and,
/// without `group`, the index of the table's section it shows.
struct DerivedView {
    var view: Table
    var sections: [(section: Section, labels: [UInt64])] = []
    var tableSections: [Int] = []
}

/// A row's place in the table as one number that orders rows as the table
/// does: its section's index in the high 32 bits, its row index in the low.
/// A view breaks ties of its sort by it (ties keep the table's order).
enum ViewLabel {
    static func of(row: Int, section: Int) -> UInt64 { UInt64(section) << 32 | UInt64(row) }
    static func section(of label: UInt64) -> Int { Int(label >> 32) }
    static func row(of label: UInt64) -> Int { Int(label & 0xFFFF_FFFF) }
}

extension Section {
    /// This section holding `rows` instead of its own.
    func withRows(_ rows: [Row]) -> Section {
        var section = self
        section.rows = RowList(rows)
        return section
    }

    /// This section holding `rows`, moved out of the array (left empty), instead of its own.
    func withRows(moving rows: inout [Row]) -> Section {
        var section = self
        section.rows = RowList(moving: &rows)
        return section
    }
}
