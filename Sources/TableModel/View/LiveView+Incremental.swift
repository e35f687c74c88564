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
            guard let applied = try? view.applyDerived(plan.opening) else { return .declined }
            view.version = table.version
            steps.append(Step(batch: applied, view: view))
        }
        let closing = plan.closingBatch(after: view)
        guard !closing.isEmpty else { return .followed(steps) }
        guard let reloaded = try? view.applyDerived(closing) else {
            return .followed(update(to: table).map { steps + $0 })
        }
        view.version = table.version
        return .followed(steps + [Step(batch: reloaded, view: view)])
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
