// The plan of one batch of row edits in one live view: where the rows it
// touched were and land (steps 2–3 of the algorithm LiveView+Incremental.swift
// states, with its invariants and complexity), and what the view makes of it
// (step 4: `EditOutcome`, its batches and how its labels follow them).

/// What a view makes of a batch of row edits: its batches, and how its labels
/// (and, without group, its sections' table sections) follow the first.
struct EditOutcome {
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
    mutating func shift(by shift: LabelShift, showing tableSections: [Int]) {
        if !shift.isEmpty && (tableSections.isEmpty || tableSections.contains(where: shift.shifts)) {
            self.shift(by: shift)
        }
    }
}

/// A row a batch reloaded, inserted, deleted or moved, as a view sees it.
struct TouchedRow {
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
struct EditPlan {
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
            var rows = order.map { touched[$0].row }
            let made: Section
            var tableSection = -1
            switch section.key {
            case .table(let s):
                made = table.sections[s].withRows(moving: &rows)
                tableSection = s
            case .group:
                // Headed as the read heads it: by the value as its first row spells it.
                let first = touched[order[0]]
                let heading = query.groupHeading(
                    first: first.row, in: table.sections[ViewLabel.section(of: first.newLabel!)])
                made = heading.section(moving: &rows)
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
