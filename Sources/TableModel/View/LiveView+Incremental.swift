// Following a batch of row reloads in a live view without deriving the view
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
// A batch that only reloads rows (at most `LiveView.incrementalLimit` of them),
// with table properties or a press or not. A reload keeps every row where it is
// in the table, so every label stays true. Anything else — rows inserted,
// deleted or moved (labels would shift), section edits, a view section that
// would appear or empty, a group section whose header would change — is
// declined, and the view is derived again and diffed (`LiveView.update(to:)`).
//
// ## Algorithm, for the touched rows T (reloads whose content changed)
// 1. For each row of T, whether it is in the view before (old content, read in
//    the table the view was derived from, `LiveView.source`) and after (new
//    content), with its keys each time.
// 2. Old places: its view section (the table section's, or its group value's)
//    and its index, by binary search of (old keys, label) in the old view.
// 3. New places, in the same old view: the lower bound b of (new keys, label)
//    in its new view section, less the rows of T that were below b there, plus
//    the rows of T that will be before it in that section. The final view is the
//    old one without T's old rows plus T's new ones, in order, so that is the
//    row's index in the final view. A row whose keys did not change has b = its
//    old index, no search needed.
// 4. One batch, in UIKit's index spaces: rows leaving the view are deleted (old
//    index paths), rows entering it inserted (new ones). A row in the view on
//    both sides whose keys did not change keeps its order among all the rows
//    not moved, so it is reloaded in place (old index path); so is a row that is
//    the only touched row of its section and lands where it was. Any other is
//    moved (old → new index path), and as a move carries no content, a second
//    batch reloads it where it landed (as the snapshot diff's closing batch does).
//    The table's properties and animation ride on the first batch.
// 5. Both batches are applied to the view with `Table.apply`, which checks them
//    against UIKit's rules (a refusal, which the property tests rule out, falls
//    back to deriving the view); the labels follow the same deletes and inserts.
//
// ## Invariants (between updates)
// - `labels[i]` holds, for every row of view section i, its place in `source`,
//   in the section's order; `tableSections` maps view sections to table ones.
// - The view equals `query.view(of: table)` for the table at `sourceVersion`.
//
// ## Complexity
// k touched rows, n rows in the view, c label chunks: O(k · log² n) key reads
// and comparisons to find places, O(k²) to combine them, O(k log n) to apply
// the batch and O(k (b + c)) for the labels (`LabelList`). A view that the row
// is in neither before nor after costs two matches of the query: O(1).

extension LiveView {
    /// Most reloads a batch may carry to be followed incrementally.
    static let incrementalLimit = 64

    /// What following a batch incrementally came to.
    enum Incremental {
        /// Not followed; the view is as it was.
        case declined
        /// The steps (nil: the client needs the whole view), the view moved.
        case followed([Step]?)
    }

    /// Follows `batch` (applied to the table at `sourceVersion`, giving
    /// `table`) when it reloads rows only.
    mutating func followIncrementally(to table: Table, by batch: Batch) -> Incremental {
        guard batch.deleteSections.isEmpty, batch.insertSections.isEmpty, batch.reloadSections.isEmpty,
            batch.moveSections.isEmpty, batch.deleteRows.isEmpty, batch.insertRows.isEmpty, batch.moveRows.isEmpty,
            batch.reloadRows.count <= Self.incrementalLimit
        else { return .declined }
        if query.isEmpty {
            // The view is the table: its batch, less a press (which changes no row).
            var own = batch
            own.press = nil
            view = table
            return .followed(own.isEmpty ? [] : [Step(batch: own, view: table)])
        }
        // The plan reads copies of the view and its labels: it is gone before they change.
        guard let plan = ReloadPlan(self, table: table, batch: batch)?.outcome(batch) else { return .declined }
        guard !plan.opening.isEmpty else { return .followed([]) }
        guard let applied = try? view.apply(plan.opening) else { return .declined }
        for path in plan.leaving { labels[path.section].remove(at: path.row) }
        for (path, label) in plan.arriving { labels[path.section].insert(label, at: path.row) }
        view.version = table.version
        let first = Step(batch: applied, view: view)
        guard !plan.closing.isEmpty else { return .followed([first]) }
        guard let reloaded = try? view.apply(plan.closing) else {
            return .followed(update(to: table).map { [first] + $0 })
        }
        view.version = table.version
        return .followed([first, Step(batch: reloaded, view: view)])
    }
}

/// What a view makes of a batch of reloads: its batches, and where the labels
/// of the rows that leave or move go (`leaving` in descending order of their
/// old index paths, `arriving` in ascending order of their new ones).
private struct ReloadOutcome {
    var opening: Batch
    var closing: Batch
    var leaving: [TableIndexPath] = []
    var arriving: [(path: TableIndexPath, label: UInt64)] = []
}

/// A row a batch reloaded, as a view sees it.
private struct TouchedRow {
    /// Where a row is in a view's order: its group's value (nil without a
    /// group, or for rows without a value) and its sort keys.
    struct Keys {
        var group: ViewValue?
        var sort: [ViewValue?]
    }

    let label: UInt64
    /// Its new content.
    let row: Row
    /// Its keys before and after; nil where it is not in the view.
    var old: Keys?
    var new: Keys?
    var oldPath: TableIndexPath?
    /// Its view section and index path after (its index known once every
    /// touched row's section is).
    var newSection: Int?
    var newPath: TableIndexPath?
}

/// The places in one live view of the rows a batch of reloads touched (steps
/// 1–3 of `LiveView+Incremental.swift`); nil from `init` when the batch is not
/// one to follow incrementally.
private struct ReloadPlan {
    let query: TableQuery
    let view: Table
    let labels: [LabelList]
    let source: [Section]
    private(set) var touched: [TouchedRow] = []

    init?(_ live: LiveView, table: Table, batch: Batch) {
        query = live.query
        view = live.view
        labels = live.labels
        source = live.source
        let selection = live.selection
        for reload in batch.reloadRows {
            let (s, r) = (reload.at.section, reload.at.row)
            let oldRow = source[s].rows[r]
            guard oldRow != reload.row else { continue }
            var row = TouchedRow(label: ViewLabel.of(row: r, section: s), row: reload.row)
            if selection.matches(oldRow, in: source[s]) { row.old = keys(of: oldRow, in: source[s]) }
            if selection.matches(reload.row, in: table.sections[s]) {
                row.new = keys(of: reload.row, in: table.sections[s])
            }
            guard row.old != nil || row.new != nil else { continue }
            if let keys = row.old {
                guard let section = viewSection(of: keys, tableSection: s, live.tableSections) else { return nil }
                let index = lowerBound(keys.sort, row.label, in: section)
                guard index < labels[section].count, labels[section][index] == row.label else { return nil }
                row.oldPath = TableIndexPath(section, index)
            }
            touched.append(row)
        }
        for offset in touched.indices {
            guard let keys = touched[offset].new else { continue }
            let s = ViewLabel.section(of: touched[offset].label)
            guard let section = viewSection(of: keys, tableSection: s, live.tableSections) else { return nil }
            touched[offset].newSection = section
        }
        for offset in touched.indices where touched[offset].new != nil {
            touched[offset].newPath = TableIndexPath(touched[offset].newSection!, newIndex(of: offset))
        }
        guard keepsSections() else { return nil }
    }

    /// The descriptors of the view's order within a section: the sort keys.
    private var sort: [ViewSortKey] { query.sort }

    private func keys(of row: Row, in section: Section) -> TouchedRow.Keys {
        TouchedRow.Keys(
            group: query.group.flatMap { ViewValue($0.key, of: row, in: section) },
            sort: sort.map { ViewValue($0.key, of: row, in: section) })
    }

    /// The section of the (old) view that holds rows with `keys` of table
    /// section `s`: the table section's, or the group's of the same value; nil
    /// when there is none.
    private func viewSection(of keys: TouchedRow.Keys, tableSection s: Int, _ tableSections: [Int]) -> Int? {
        guard let group = query.group else {
            var low = 0
            var high = tableSections.count
            while low < high {
                let middle = (low + high) / 2
                if tableSections[middle] < s { low = middle + 1 } else { high = middle }
            }
            return low < tableSections.count && tableSections[low] == s ? low : nil
        }
        var low = 0
        var high = view.sections.count
        while low < high {
            let middle = (low + high) / 2
            guard !view.sections[middle].rows.isEmpty else { return nil }
            let first = view.sections[middle].rows[0]
            let value = ViewValue(group.key, of: first, in: source[ViewLabel.section(of: labels[middle][0])])
            switch TableQuery.compare(keys.group, value, descending: group.descending) {
            case .same: return middle
            case .before: high = middle
            case .after: low = middle + 1
            }
        }
        return nil
    }

    /// The first index of view section `section` whose row comes at or after
    /// a row with sort keys `keys` and label `label`.
    private func lowerBound(_ keys: [ViewValue?], _ label: UInt64, in section: Int) -> Int {
        var low = 0
        var high = labels[section].count
        while low < high {
            let middle = (low + high) / 2
            if order(keys, label, against: section, middle) == .after { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// How a row with `keys` and `label` compares with the old view's row `index` of `section`.
    private func order(_ keys: [ViewValue?], _ label: UInt64, against section: Int, _ index: Int) -> Ordering {
        let other = labels[section][index]
        if !sort.isEmpty {
            let row = view.sections[section].rows[index]
            let rowSection = source[ViewLabel.section(of: other)]
            let otherKeys = sort.map { ViewValue($0.key, of: row, in: rowSection) }
            let result = TableQuery.compare(keys, otherKeys, by: sort)
            if result != .same { return result }
        }
        return label < other ? .before : (label > other ? .after : .same)
    }

    /// Whether touched row `offset` keeps its keys (so its order among every other row).
    private func keepsKeys(_ offset: Int) -> Bool {
        guard let old = touched[offset].old, let new = touched[offset].new else { return false }
        let group = query.group.map { TableQuery.compare(old.group, new.group, descending: $0.descending) }
        return (group ?? .same) == .same && TableQuery.compare(old.sort, new.sort, by: sort) == .same
    }

    /// The index in the final view of touched row `offset`, all new sections known (step 3).
    private func newIndex(of offset: Int) -> Int {
        let row = touched[offset]
        let section = row.newSection!
        let keys = row.new!.sort
        var index = keepsKeys(offset) ? row.oldPath!.row : lowerBound(keys, row.label, in: section)
        let bound = index
        for (other, touchedRow) in touched.enumerated() {
            if let oldPath = touchedRow.oldPath, oldPath.section == section, oldPath.row < bound { index -= 1 }
            guard other != offset, touchedRow.newSection == section else { continue }
            let result = TableQuery.compare(touchedRow.new!.sort, keys, by: sort)
            if result == .before || (result == .same && touchedRow.label < row.label) { index += 1 }
        }
        return index
    }

    /// Whether the view keeps its sections as they are: none left empty where
    /// an empty section goes (with q, a filter or group), no group header
    /// changed (a new group value has no section: `init` declines it).
    private func keepsSections() -> Bool {
        var changed = Set(touched.compactMap { $0.oldPath?.section })
        changed.formUnion(touched.compactMap(\.newSection))
        for section in changed {
            let leaving = touched.filter { $0.oldPath?.section == section }
            let arriving = touched.filter { $0.newSection == section }
            let count = view.sections[section].rows.count - leaving.count + arriving.count
            if count == 0 && (query.group != nil || query.selectsRows) { return false }
            guard let group = query.group, count > 0 else { continue }
            // The header is the group value as the section's first row spells it.
            let first: (row: Row, section: Section)
            if let arrived = arriving.first(where: { $0.newPath?.row == 0 }) {
                first = (arrived.row, source[ViewLabel.section(of: arrived.label)])
            } else {
                let left = Set(leaving.map { $0.oldPath!.row })
                var index = 0
                while left.contains(index) { index += 1 }
                first = (view.sections[section].rows[index], source[ViewLabel.section(of: labels[section][index])])
            }
            let heading = TableQuery.groupHeading(ViewValue(group.key, of: first.row, in: first.section))
            if heading.header != view.sections[section].header
                || heading.indexTitle != view.sections[section].indexTitle
            {
                return false
            }
        }
        return true
    }

    /// Whether touched row `offset` stays where it is among the rows not moved
    /// (step 4): its keys are the same, or it is its section's one touched row
    /// and lands at its old index.
    private func staysInPlace(_ offset: Int) -> Bool {
        guard let oldPath = touched[offset].oldPath, let newPath = touched[offset].newPath else { return false }
        if keepsKeys(offset) { return true }
        guard oldPath == newPath else { return false }
        return !touched.indices.contains { other in
            other != offset
                && (touched[other].oldPath?.section == oldPath.section || touched[other].newSection == oldPath.section)
        }
    }

    /// The view's batches (step 4) and the labels' moves: the first batch
    /// deletes, inserts, moves and reloads in place; the second reloads the
    /// moved rows' new content where they landed.
    func outcome(_ batch: Batch) -> ReloadOutcome {
        var outcome = ReloadOutcome(
            opening: Batch(properties: batch.properties, animation: batch.animation),
            closing: Batch(animation: batch.animation))
        for (offset, row) in touched.enumerated() {
            switch (row.oldPath, row.newPath) {
            case (let old?, nil):
                outcome.opening.deleteRows.append(old)
                outcome.leaving.append(old)
            case (nil, let new?):
                outcome.opening.insertRows.append(Batch.RowItem(at: new, row: row.row))
                outcome.arriving.append((new, row.label))
            case (let old?, _?) where staysInPlace(offset):
                outcome.opening.reloadRows.append(Batch.RowItem(at: old, row: row.row))
            case (let old?, let new?):
                outcome.opening.moveRows.append(Batch.RowMove(from: old, to: new))
                outcome.closing.reloadRows.append(Batch.RowItem(at: new, row: row.row))
                outcome.leaving.append(old)
                outcome.arriving.append((new, row.label))
            case (nil, nil): break
            }
        }
        outcome.leaving.sort(by: >)
        outcome.arriving.sort { $0.path < $1.path }
        return outcome
    }
}
