// One page of a view's section read from the table in place, without
// deriving the view: what a JSON page of a search or a filter answers
// (docs/API.md, "Views").
//
// Deriving a view copies every row it selects into a table of its own — a
// tree of rows and an index of their ids — which for a search that matches
// most rows of a large table costs far more than finding them (the first
// page of `q=Row` over 1,000,000 rows: about 0.9 s, against 25 ms for a
// selective search). A query that selects rows but neither sorts nor groups
// keeps the table's order, so its page is read in one pass: the sections
// before the page's are looked at only until a row of each is found (a
// section without one is not in the view), the page's section is read to
// its end to count its rows, as a selective search reads every row, and only
// the rows of the page are copied out. Cost: O(n·w) over the n rows read and
// w words, and O(limit) rows copied, whatever the number selected.

extension TableQuery {
    /// Whether a page of this view is read from the table in place
    /// (`page(_:ofSection:in:)`): it selects rows (`q` or a filter) and
    /// neither sorts nor groups them.
    public var readsPagesInPlace: Bool { selectsRows && sort.isEmpty && group == nil }

    /// The rows `range` (offsets among the section's rows) of section `index`
    /// of this query's view of `table`, and how many rows that section has;
    /// only the page's rows are copied. The query must read pages in place.
    public func page(_ range: Range<Int>, ofSection index: Int, in table: Table) -> ViewPage {
        precondition(readsPagesInPlace, "a page read in place neither sorts nor groups")
        let selection = RowSelection(self)
        var page = ViewPage()
        var shown = 0
        for section in table.sections {
            guard shown == index else {
                if selection.selectsAny(in: section) { shown += 1 }
                continue
            }
            var count = 0
            selection.forEachSelected(in: section, rows: 0..<section.rows.count) { _, row in
                if range.contains(count) { page.rows.append(row.pointee) }
                count += 1
            }
            guard count > 0 else { continue }
            page.hasSection = true
            page.total = count
            break
        }
        return page
    }
}

/// One page of a view's section (`TableQuery.page(_:ofSection:in:)`).
public struct ViewPage: Sendable {
    /// Whether the view has the section: false past its last one.
    public var hasSection = false
    /// The rows the view's section has.
    public var total = 0
    /// The page's rows, in the view's order: the only rows copied.
    public var rows: [Row] = []

    public init(hasSection: Bool = false, total: Int = 0, rows: [Row] = []) {
        self.hasSection = hasSection
        self.total = total
        self.rows = rows
    }
}

extension RowSelection {
    /// Rows a look for any selected row reads at a time: it stops after the
    /// stretch where it finds one.
    static let stretch = 1_024

    /// Whether any row of `section` is in the view: read a stretch at a time,
    /// up to the first one found.
    func selectsAny(in section: Section) -> Bool {
        var start = 0
        while start < section.rows.count {
            let stretch = start..<min(start + Self.stretch, section.rows.count)
            var found = false
            forEachSelected(in: section, rows: stretch) { _, _ in found = true }
            if found { return true }
            start = stretch.upperBound
        }
        return false
    }
}
