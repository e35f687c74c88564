// Following a batch of row edits in a live view without deriving the view
// again: what makes a one-row edit cheap with many views open (docs/API.md,
// "Views").
//
// ## The view's order
// A view section's rows are ordered by their keys — the group's value, then
// the sort keys (`TableQuery.compare`) — and ties by their place in the table
// (`ViewLabel`: section index, then row index). The view keeps, beside each
// section's rows, their labels (`LiveView.labels`), so a row's place in the
// view is found by binary search on (keys, label) in O(log² n): log n probes,
// each reading a row of the section's counted B-tree in O(log n). Without sort
// and group the order is the labels' alone, searched without reading rows.
//
// ## What is followed
// A batch of at most `LiveView.incrementalLimit` row edits: rows reloaded,
// inserted, deleted or moved (within a section or to another), anywhere;
// with table properties or a press or not. Section edits are declined, and
// the view is derived again and diffed (`LiveView.update(to:)`). A view of
// the table itself (an empty query) follows any batch: it is the table's own.
//
// ## Labels through the batch
// Rows inserted, deleted or moved shift the places (labels) of the rows after
// them in their table sections. The batch defines, per table section, a
// monotone map from a remaining row's place before to its place after
// (`RowShift`: the rows leaving before it and arriving before it, O(log k)),
// extended to a row that leaves as the place the next remaining row takes, so
// still monotone. The rows the batch does not touch keep their keys, and the
// map keeps their order: they keep their order in every view. So a touched
// row's old place is found with the old labels, its new place comparing its
// new label with the shifted labels of the rows stored (a section stays
// ordered by them), and once the batch is applied, the untouched rows' labels
// move through the map (`LabelShift`) — lazily: the view logs the map's steps,
// a label read is moved through the maps logged since it was stored, and every
// 128 maps all labels are moved through them at once, composed (`ViewLabels`).
//
// ## Algorithm, for the touched rows T (rows reloaded with a new content,
// inserted, deleted or moved; a moved row has an old place and a new one and
// keeps its content)
// 1. For each row of T, whether it is in the view before (old content, read in
//    the table the view was derived from, `LiveView.source`) and after (new
//    content), with its keys each time. Its old label is where it was, its new
//    one where it is (a reloaded row's: its old one shifted).
// 2. Old places: its view section — the one of its section key (the table
//    section's index, or its group value), by binary search over the
//    sections' keys — and its index, by binary search of (old keys, old label).
// 3. New sections: the old view's section of the row's new section key, or a
//    section the view gains (placed among the old ones by binary search, the
//    gained ones in key order). An old section that every row leaves and none
//    enters goes, where empty sections go (with q, a filter or group).
//    New places, in the same old view: the lower bound b of (new keys, new
//    label) in its section against (keys, shifted label), less the rows of T
//    that were below b there, plus the rows of T that will be before it there.
//    The final section is the old one without T's old rows plus T's new ones,
//    in order, so that is the row's index in it. A reloaded row whose keys did
//    not change has b = its old index, no search needed. In a gained section,
//    a row's index is its rank among T's.
// 4. One batch, in UIKit's index spaces (old section indexes for deletes and
//    sources, new ones for inserts and targets, shifted by the sections deleted
//    and gained): sections emptied are deleted and gained ones inserted with
//    their rows (a header from the first in the view's order: the group's value
//    as it spells it, `TableQuery.groupHeading(first:in:)`);
//    rows leaving a section that stays are deleted (old index paths), rows
//    entering one inserted (new ones). A reloaded row staying in a section
//    with the same keys keeps its order among all the rows not moved, so it is
//    reloaded in place (old index path); so is a row that lands at its old
//    index with as many other touched rows before it as before (it keeps its
//    order among the rows not moved). No row is moved onto its own index path,
//    and none reloaded whose content is the same: a row moved in the table that
//    stays where it was in the view sends nothing. Any other is moved (old →
//    new index path), and as a move carries no content, a second batch reloads
//    it where it landed when its content changed (as the snapshot diff's
//    closing batch does). A row landing at its old index but not among the
//    same rows not moved (other touched rows moved past it) would be a move
//    onto its own index path: then the view is derived again and diffed
//    (rare: two or more touched rows of one section, a one-row edit never),
//    whose rows kept in place hold every row at its old index. So is a row
//    with an id that stays in the view but leaves a section the view loses
//    or enters one it gains, since UIKit moves no row out of a section
//    deleted, nor into one inserted, in the same batch (nor is it deleted
//    and inserted again, nor is a row deleted while another with its id is
//    inserted): the diff's stages move it. A group section that
//    stays but whose first row now spells its value otherwise is reloaded in
//    that second batch with its new header and its rows as they end (carrying
//    their reloads). No row is edited in a section deleted, inserted or
//    reloaded, as UIKit requires. The table's properties and animation ride on
//    the first batch.
// 5. Both batches are applied to the view with `Table.apply`, which checks them
//    against UIKit's rules (a refusal, which the property tests rule out, falls
//    back to deriving the view); the labels, and the table sections the view's
//    sections show, follow the same deletes and inserts, the untouched rows'
//    labels moved through the shift between them (`EditOutcome.move`).
//
// ## Invariants (between updates)
// - `labels` holds, for every row of view section i, its place in `source`
//   (as stored, moved through the maps logged since), in the section's order; without group, `tableSections[i]` is the table
//   section view section i shows, ascending.
// - The view equals `query.view(of: table)` for the table at `sourceVersion`.
//
// ## Complexity
// k touched rows, n rows in the view, s sections in it, c label chunks of at
// most b labels, e maps logged (`ViewLabels`, fewer than 128) of t steps (two
// for a one-row edit): O(k · (log s + log n) · (log n + e log t)) to find
// places (probes reading a row's keys and a label moved through the log),
// O(k²) to combine them, O(k log n) to apply the batch, O(k (b + c + b log(e
// t))) for the labels (`LabelList`), and, when rows are inserted, deleted or
// moved, O(1) to log the shift and, once every 128 such batches, O(n log(e t))
// plain integer work to move every label (at different batches for different
// views of a table); O(s) when the view gains or loses a section, and the
// section's rows when a group header changes (the section is reloaded whole).
// The batch's shift and its row edits (the rows read in the table before it)
// are the same for every view of a table: they are worked out once for all
// (`LiveView.Change`), and a view the rows are in neither before nor after
// costs two matches of the query a row, O(1), and the shift logged. With 100
// views of 20,000–220,000 rows each open on a 1,000,000-row table (`ModelBench
// views`), a row inserted, deleted or moved in the middle of the section costs
// about 0.3–0.9 ms of CPU an edit for all the views (the mean, with the
// compactions), against 11–16 ms when every view rewrote its labels each time
// (docs/perf-history/live-views-and-search.md).

extension LiveView {
    /// Most row edits a batch may carry to be followed incrementally.
    static let incrementalLimit = 64

    /// What following a batch incrementally came to.
    enum Incremental {
        /// Not followed; the view is as it was.
        case declined
        /// The steps (nil: the client needs the whole view), the view moved.
        case followed([Step]?)
    }

    /// Follows `change`'s one batch (applied to the table at `sourceVersion`,
    /// giving `change.table`) when it leaves every staying row where it was
    /// (see above).
    mutating func followIncrementally(_ change: inout Change) -> Incremental {
        let table = change.table
        let batch = change.batches[0]
        if query.isEmpty {
            // The view is the table: its batch, less a press (which changes no row).
            var own = batch
            own.press = nil
            view = table
            return .followed(own.isEmpty ? [] : [Step(batch: own, view: table)])
        }
        guard let shift = change.shift else { return .declined }
        let touched = touchedRows(change.edits(from: source, version: sourceVersion), in: table)
        // Most views of a table hold none of the rows an edit touches: their
        // rows stay where they were, and only their labels move.
        if touched.isEmpty && (batch.properties?.isEmpty ?? true) {
            labels.shift(by: shift, showing: tableSections)
            return .followed([])
        }
        // The plan reads copies of the view and its labels: it is gone before they change.
        guard let planned = EditPlan(self, touched: touched, shift: shift) else { return .declined }
        // A row landing on its own index path across rows not moved: derived again (step 4).
        guard let plan = planned.outcome(batch, table: table) else { return .followed(update(to: table)) }
        // Declined from here on, the view is derived again, labels and all.
        plan.move(&labels, &tableSections, shift: shift)
        var steps: [Step] = []
        if !plan.opening.isEmpty {
            guard let applied = try? view.apply(plan.opening) else { return .declined }
            view.version = table.version
            steps.append(Step(batch: applied, view: view))
        }
        let closing = plan.closingBatch(after: view)
        guard !closing.isEmpty else { return .followed(steps) }
        guard let reloaded = try? view.apply(closing) else {
            return .followed(update(to: table).map { steps + $0 })
        }
        view.version = table.version
        return .followed(steps + [Step(batch: reloaded, view: view)])
    }
}

/// What a view makes of a batch of row edits: its batches, and how its labels
/// (and, without group, its sections' table sections) follow the first.
private struct EditOutcome {
    var opening: Batch
    var closing: Batch
    /// The labels of touched rows leaving sections that stay (or staying in
    /// place with a new label), by old index path, descending.
    var leaving: [TableIndexPath] = []
    /// Sections deleted, by old index, descending; inserted, by new index,
    /// ascending, with their rows' labels and table section.
    var deletedSections: [Int] = []
    var insertedSections: [(at: Int, labels: [UInt64], tableSection: Int)] = []
    /// The labels of rows arriving in sections that stay, by new index path, ascending.
    var arriving: [(path: TableIndexPath, label: UInt64)] = []
    /// Group sections that stay with another header, by new index.
    var reheaded: [(at: Int, heading: GroupHeading)] = []

    /// The second batch, once the first is applied to `view`: the moved rows'
    /// reloads, and a reload of each section whose header changes, with its
    /// rows as they end (a section reloaded carries its rows' edits, so its
    /// rows are not reloaded apart).
    func closingBatch(after view: Table) -> Batch {
        var batch = closing
        for heading in reheaded {
            var section = view.sections[heading.at]
            heading.heading.head(&section)
            for reload in batch.reloadRows where reload.at.section == heading.at {
                section.rows[reload.at.row] = reload.row
            }
            batch.reloadRows.removeAll { $0.at.section == heading.at }
            batch.reloadSections.append(Batch.SectionItem(at: heading.at, section: section))
        }
        return batch
    }

    /// Moves the labels and table sections as the first batch moves rows and
    /// sections, and moves the labels of the rows not touched, which stay
    /// in the view where they were, through `shift`.
    func move(_ labels: inout ViewLabels, _ tableSections: inout [Int], shift: LabelShift) {
        for path in leaving { labels.remove(at: path) }
        for section in deletedSections {
            labels.removeSection(at: section)
            if !tableSections.isEmpty { tableSections.remove(at: section) }
        }
        labels.shift(by: shift, showing: tableSections)
        for inserted in insertedSections {
            labels.insertSection(inserted.labels, at: inserted.at)
            if inserted.tableSection >= 0 { tableSections.insert(inserted.tableSection, at: inserted.at) }
        }
        for (path, label) in arriving { labels.insert(label, at: path) }
    }
}

extension ViewLabels {
    /// Moves the labels of the rows a batch leaves in place through `shift`,
    /// unless the view shows table sections (`tableSections`, without group)
    /// and the batch shifts none of them: without group, a view section's
    /// labels are of its table section alone.
    fileprivate mutating func shift(by shift: LabelShift, showing tableSections: [Int]) {
        if !shift.isEmpty && (tableSections.isEmpty || tableSections.contains(where: shift.shifts)) {
            self.shift(by: shift)
        }
    }
}

extension LiveView {
    /// The rows of `edits` in this view before or after, with their keys
    /// there (step 1 above); `table` is the table after.
    fileprivate func touchedRows(_ edits: [TableEdit], in table: Table) -> [TouchedRow] {
        var touched: [TouchedRow] = []
        for edit in edits {
            var old: TouchedRow.Keys?
            var new: TouchedRow.Keys?
            if let oldRow = edit.oldRow, let s = edit.oldLabel.map(ViewLabel.section),
                selection.matches(oldRow, in: source[s])
            {
                old = TouchedRow.Keys(of: oldRow, in: source[s], query: query)
            }
            if let newRow = edit.newRow, let s = edit.newLabel.map(ViewLabel.section),
                selection.matches(newRow, in: table.sections[s])
            {
                new = TouchedRow.Keys(of: newRow, in: table.sections[s], query: query)
            }
            guard old != nil || new != nil else { continue }
            touched.append(
                TouchedRow(
                    oldLabel: edit.oldLabel, newLabel: edit.newLabel, reloaded: edit.reloaded,
                    row: edit.newRow ?? edit.oldRow!, changed: edit.oldRow != edit.newRow, old: old, new: new))
        }
        return touched
    }
}

/// A row a batch reloaded, inserted, deleted or moved, as a view sees it.
private struct TouchedRow {
    /// Where a row is in a view's order: its group's value (nil without a
    /// group, or for rows without a value) and its sort keys.
    struct Keys {
        var group: ViewValue?
        var sort: [ViewValue?]

        init(of row: Row, in section: Section, query: TableQuery) {
            group = query.group.flatMap { ViewValue($0.key, of: row, in: section) }
            sort = query.sortKeys(of: row, in: section)
        }
    }

    /// Its place in the table before (`LiveView.source`) and after, where it is.
    let oldLabel: UInt64?
    let newLabel: UInt64?
    /// Whether it was reloaded (not moved): it remains among the rows the
    /// batch leaves in its section, so keeps its order among them (`LabelShift`).
    let reloaded: Bool
    /// Its new content (its old one when deleted), and whether that changed.
    let row: Row
    let changed: Bool
    /// Its keys before and after; nil where it is not in the view.
    var old: Keys?
    var new: Keys?
    var oldPath: TableIndexPath?
    /// After: the old view's section it lands in, or the new section (an
    /// index into `EditPlan.inserted`), and its row index there.
    var newSection: Int?
    var newInserted: Int?
    var newRow = 0
}

/// The places in one live view of the rows a batch of row edits touched (steps
/// 1–3 of `LiveView+Incremental.swift`); nil from `init` when the batch is not
/// one to follow incrementally.
private struct EditPlan {
    /// What places a section in the view: the group's value, or the index of
    /// the table section it shows.
    enum SectionKey {
        case group(ViewValue?)
        case table(Int)
    }

    /// A section the view gains: its key, where it goes among the old view's
    /// sections (how many of them come before it), and the touched rows in it.
    struct NewSection {
        var key: SectionKey
        var before: Int
        var rows: [Int] = []
    }

    let query: TableQuery
    let view: Table
    let labels: ViewLabels
    let source: [Section]
    let tableSections: [Int]
    private(set) var touched: [TouchedRow] = []
    private(set) var inserted: [NewSection] = []
    /// Sections of the old view left without a row, where such a section goes.
    private(set) var deleted: [Int] = []
    /// Group sections of the old view that stay with another header.
    private(set) var reheaded: [(section: Int, heading: GroupHeading)] = []

    /// The places before of the rows remaining in the table are moved through
    /// `shift` to compare with the touched rows' places after.
    let shift: LabelShift

    /// The plan of `rows`, those a batch touched in `live` before or after
    /// (`touchedRows`), in `live`.
    init?(_ live: LiveView, touched rows: [TouchedRow], shift: LabelShift) {
        self.shift = shift
        query = live.query
        view = live.view
        labels = live.labels
        source = live.source
        tableSections = live.tableSections
        for var row in rows {
            if let keys = row.old, let label = row.oldLabel {
                let key = sectionKey(keys, tableSection: ViewLabel.section(of: label))
                let section = lowerBound(key)
                guard section < view.sections.count, compare(key, oldKey(section)) == .same else { return nil }
                let index = lowerBound(keys.sort, label, in: section, shifted: false)
                guard index < labels.count(section), labels[section, index] == label else { return nil }
                row.oldPath = TableIndexPath(section, index)
            }
            touched.append(row)
        }
        placeSections()
        for offset in touched.indices where touched[offset].new != nil {
            touched[offset].newRow = newIndex(of: offset)
        }
        reheaded = headingsChanged()
    }

    /// The descriptors of the view's order within a section: the sort keys.
    private var sort: [ViewSortKey] { query.sort }

    private func sectionKey(_ keys: TouchedRow.Keys, tableSection s: Int) -> SectionKey {
        query.group == nil ? .table(s) : .group(keys.group)
    }

    /// The key of the old view's section `index`: its table section's, or its first row's group value.
    private func oldKey(_ index: Int) -> SectionKey {
        guard let group = query.group else { return .table(tableSections[index]) }
        let first = view.sections[index].rows[0]
        return .group(ViewValue(group.key, of: first, in: source[ViewLabel.section(of: labels[index, 0])]))
    }

    private func compare(_ left: SectionKey, _ right: SectionKey) -> Ordering {
        switch (left, right) {
        case (.table(let a), .table(let b)): a < b ? .before : (a > b ? .after : .same)
        case (.group(let a), .group(let b)):
            TableQuery.compare(a, b, descending: query.group?.descending ?? false)
        default: .same
        }
    }

    /// How many sections of the old view come before a section with `key`.
    private func lowerBound(_ key: SectionKey) -> Int {
        var low = 0
        var high = view.sections.count
        while low < high {
            let middle = (low + high) / 2
            if compare(key, oldKey(middle)) == .after { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first index of view section `section` whose row comes at or after
    /// a row with sort keys `keys` and label `label`: a place before the
    /// batch, or, `shifted`, after it, compared with the rows' places before
    /// moved through `shift` (monotone, so the section stays ordered by it).
    private func lowerBound(_ keys: [ViewValue?], _ label: UInt64, in section: Int, shifted: Bool) -> Int {
        var low = 0
        var high = labels.count(section)
        while low < high {
            let middle = (low + high) / 2
            if order(keys, label, against: section, middle, shifted: shifted) == .after {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// How a row with `keys` and `label` compares with the old view's row `index` of `section`.
    private func order(_ keys: [ViewValue?], _ label: UInt64, against section: Int, _ index: Int, shifted: Bool)
        -> Ordering
    {
        let stored = labels[section, index]
        let other = shifted ? shift(stored) : stored
        if !sort.isEmpty {
            let row = view.sections[section].rows[index]
            let rowSection = source[ViewLabel.section(of: stored)]
            let otherKeys = query.sortKeys(of: row, in: rowSection)
            let result = TableQuery.compare(keys, otherKeys, by: sort)
            if result != .same { return result }
        }
        return label < other ? .before : (label > other ? .after : .same)
    }

    /// Whether touched row `a` comes before touched row `b` in a section both are in after.
    private func precedes(_ a: Int, _ b: Int) -> Bool {
        let result = TableQuery.compare(touched[a].new!.sort, touched[b].new!.sort, by: sort)
        return result == .before || (result == .same && touched[a].newLabel! < touched[b].newLabel!)
    }

    /// The sections the touched rows land in: an old one, or one the view
    /// gains (ordered by key); and the old ones left without a row, where
    /// empty sections go (with q, a filter or group).
    private mutating func placeSections() {
        for offset in touched.indices {
            guard let keys = touched[offset].new else { continue }
            let key = sectionKey(keys, tableSection: ViewLabel.section(of: touched[offset].newLabel!))
            let before = lowerBound(key)
            if before < view.sections.count && compare(key, oldKey(before)) == .same {
                touched[offset].newSection = before
                continue
            }
            let known = inserted.firstIndex { compare($0.key, key) == .same }
            let index = known ?? inserted.count
            if known == nil { inserted.append(NewSection(key: key, before: before)) }
            inserted[index].rows.append(offset)
        }
        let unsorted = inserted
        inserted = unsorted.sorted { compare($0.key, $1.key) == .before }
        for (index, section) in inserted.enumerated() {
            for offset in section.rows { touched[offset].newInserted = index }
        }
        guard query.group != nil || query.selectsRows else { return }
        for section in Set(touched.compactMap { $0.oldPath?.section }) {
            let leaving = touched.filter { $0.oldPath?.section == section }.count
            let arriving = touched.filter { $0.newSection == section }.count
            if view.sections[section].rows.count - leaving + arriving == 0 { deleted.append(section) }
        }
    }

    /// The index of touched row `offset` in its section after (step 3).
    private func newIndex(of offset: Int) -> Int {
        let row = touched[offset]
        if let new = row.newInserted {
            return inserted[new].rows.filter { precedes($0, offset) }.count
        }
        let section = row.newSection!
        var index =
            keepsKeys(offset) ? row.oldPath!.row : lowerBound(row.new!.sort, row.newLabel!, in: section, shifted: true)
        let bound = index
        for (other, touchedRow) in touched.enumerated() {
            if let oldPath = touchedRow.oldPath, oldPath.section == section, oldPath.row < bound { index -= 1 }
            if other != offset && touchedRow.newSection == section && precedes(other, offset) { index += 1 }
        }
        return index
    }

    /// Whether touched row `offset` is reloaded and keeps its keys (so its
    /// order among every other row).
    private func keepsKeys(_ offset: Int) -> Bool {
        guard touched[offset].reloaded, let old = touched[offset].old, let new = touched[offset].new else {
            return false
        }
        let group = query.group.map { TableQuery.compare(old.group, new.group, descending: $0.descending) }
        return (group ?? .same) == .same && TableQuery.compare(old.sort, new.sort, by: sort) == .same
    }

    /// The group sections that stay but whose header changes (the group
    /// value as the section's first row spells it), with their new heading.
    private func headingsChanged() -> [(section: Int, heading: GroupHeading)] {
        guard query.group != nil else { return [] }
        var changes: [(section: Int, heading: GroupHeading)] = []
        var changed = Set(touched.compactMap { $0.oldPath?.section })
        changed.formUnion(touched.compactMap(\.newSection))
        for section in changed.subtracting(deleted) {
            let first: (row: Row, section: Section)
            if let arrived = touched.first(where: { $0.newSection == section && $0.newRow == 0 }) {
                first = (arrived.row, source[ViewLabel.section(of: arrived.newLabel!)])
            } else {
                let left = Set(touched.filter { $0.oldPath?.section == section }.map { $0.oldPath!.row })
                var index = 0
                while left.contains(index) { index += 1 }
                first = (view.sections[section].rows[index], source[ViewLabel.section(of: labels[section, index])])
            }
            let heading = query.groupHeading(first: first.row, in: first.section)
            if !heading.heads(view.sections[section]) { changes.append((section, heading)) }
        }
        return changes
    }

    /// The new index of the old view's section `index`, which stays.
    private func finalIndex(ofOld index: Int) -> Int {
        index - deleted.count { $0 < index } + inserted.count { $0.before <= index }
    }

    /// The new index of gained section `index`.
    private func finalIndex(ofInserted index: Int) -> Int {
        let before = inserted[index].before
        return before - deleted.count { $0 < before } + index
    }

    /// Whether touched row `offset` stays where it is among the rows not moved
    /// (step 4): it stays in its section, and its keys are the same, or it
    /// lands at its old index with as many of the other touched rows before it
    /// as before (so as many of the rows not moved: it keeps its order among
    /// them, and a move onto its own index path would say nothing).
    private func staysInPlace(_ offset: Int) -> Bool {
        let row = touched[offset]
        guard let oldPath = row.oldPath, row.newSection == oldPath.section else { return false }
        if keepsKeys(offset) { return true }
        guard row.newRow == oldPath.row else { return false }
        var balance = 0
        for (other, touchedRow) in touched.enumerated() where other != offset {
            let before = touchedRow.oldPath.map { $0.section == oldPath.section && $0.row < oldPath.row } ?? false
            let after = touchedRow.newSection == oldPath.section && touchedRow.newRow < row.newRow
            // A row reloaded in place is not moved either: it may not change sides.
            if before != after && keepsKeys(other) { return false }
            balance += (before ? 1 : 0) - (after ? 1 : 0)
        }
        return balance == 0
    }

    /// Whether a row with an id would be deleted and inserted again rather
    /// than moved (step 4): it stays in the view but leaves a section the view
    /// loses or enters one it gains (UIKit moves no row out of a section
    /// deleted, nor into one inserted, in the same batch), or the batch
    /// deleted a row and inserted another with its id.
    private func needsStages(gone: Set<Int>) -> Bool {
        for row in touched where row.row.id != nil && row.new != nil {
            let leavesGone = row.oldPath.map { gone.contains($0.section) } ?? false
            if leavesGone || (row.oldPath != nil && row.newInserted != nil) { return true }
        }
        // One row cannot meet its own id (a one-row edit, the usual one, stops here).
        guard touched.count > 1 else { return false }
        let deletedIDs = Set(touched.lazy.filter { $0.new == nil }.compactMap(\.row.id))
        return touched.contains { $0.old == nil && $0.row.id.map(deletedIDs.contains) == true }
    }

    /// The view's batches (step 4) and the labels' moves: the first batch
    /// deletes and inserts sections and rows, moves rows and reloads them in
    /// place; the second reloads the moved rows' new content where they landed.
    /// Nil when a row would be moved onto its own index path, or deleted and
    /// inserted again (step 4).
    func outcome(_ batch: Batch, table: Table) -> EditOutcome? {
        var outcome = EditOutcome(
            opening: Batch(properties: batch.properties, animation: batch.animation),
            closing: Batch(animation: batch.animation))
        let gone = Set(deleted)
        guard !needsStages(gone: gone) else { return nil }
        outcome.deletedSections = deleted.sorted(by: >)
        outcome.opening.deleteSections = deleted.sorted()
        for (index, section) in inserted.enumerated() {
            let order = section.rows.sorted { precedes($0, $1) }
            let rows = order.map { touched[$0].row }
            let made: Section
            var tableSection = -1
            switch section.key {
            case .table(let s):
                made = table.sections[s].withRows(rows)
                tableSection = s
            case .group:
                // Headed as the read heads it: by the value as its first row spells it.
                let first = touched[order[0]]
                let heading = query.groupHeading(
                    first: first.row, in: table.sections[ViewLabel.section(of: first.newLabel!)])
                made = heading.section(rows)
            }
            let at = finalIndex(ofInserted: index)
            outcome.opening.insertSections.append(Batch.SectionItem(at: at, section: made))
            outcome.insertedSections.append((at, order.map { touched[$0].newLabel! }, tableSection))
        }
        for (offset, row) in touched.enumerated() {
            // Rows of a section deleted or inserted go with it.
            let old = row.oldPath.flatMap { gone.contains($0.section) ? nil : $0 }
            let new = row.newSection.map { TableIndexPath(finalIndex(ofOld: $0), row.newRow) }
            if let old { outcome.leaving.append(old) }
            if let new { outcome.arriving.append((new, row.newLabel!)) }
            if let old, new != nil, staysInPlace(offset) {
                // A row moved in the table that lands where it was changes nothing in the view.
                if row.changed { outcome.opening.reloadRows.append(Batch.RowItem(at: old, row: row.row)) }
                continue
            }
            switch (old, new) {
            case (let old?, let new?):
                if row.newSection == old.section && new.row == old.row { return nil }
                outcome.opening.moveRows.append(Batch.RowMove(from: old, to: new))
                if row.changed { outcome.closing.reloadRows.append(Batch.RowItem(at: new, row: row.row)) }
            case (let old?, nil): outcome.opening.deleteRows.append(old)
            case (nil, let new?): outcome.opening.insertRows.append(Batch.RowItem(at: new, row: row.row))
            case (nil, nil): break
            }
        }
        outcome.leaving.sort(by: >)
        outcome.arriving.sort { $0.path < $1.path }
        outcome.reheaded = reheaded.map { (finalIndex(ofOld: $0.section), $0.heading) }
        return outcome
    }
}
