// The batch engine: UIKit's `performBatchUpdates` applied to a `Table`.
//
// ## Rules (docs/API.md, "A batch")
// - Deletes, reloads and the `from` of a move name positions BEFORE the batch;
//   inserts and the `to` of a move name positions AFTER it. The order of the
//   operations inside the batch does not matter. Deletes are processed before
//   inserts.
// - Every inserted or moved item lands exactly at its target; the remaining items
//   keep their relative order and fill the other positions. A reloaded item keeps
//   its place among the remaining items and gets its new content.
//   Example: `A0 A1 A2 A3 A4 A5 A6`, delete 1 and 5, insert N2 at 2 and N3 at 3,
//   reload 4 → `A0 A2 N2 N3 A3 A4' A6`.
// - Sections follow the same rules. Rows of a moved section are addressed by the
//   section's index before the batch (sources) and after it (targets). Row edits
//   happen only in sections that exist on both sides and are not reloaded.
// - A batch is accepted exactly when UIKit would accept the same calls (plus the
//   stricter rules of docs/API.md), else refused as a whole with UIKit's words: see
//   `BatchValidation.swift` for the checks and their order, `BatchMessages.swift`
//   for the words and `BatchError.Rule` for the problem types.
//
// ## Algorithm
// 1. Validate everything against the unchanged table (`BatchValidation`), which
//    yields a `BatchPlan`: per section, the rows leaving it (deletes and move
//    sources, by index before) and the rows arriving (inserts and move targets, by
//    index after), every target checked to be `< count after` and distinct.
//    Nothing below can fail, so a refused batch leaves the table untouched.
// 2. Per section, before the section array changes:
//    a. reload rows in place, by index before;
//    b. remove leaving rows in DESCENDING index order — each removal leaves the
//       smaller indexes, still to be removed, where they were — keeping the moved
//       rows aside;
//    c. insert arriving rows in ASCENDING target order. When target `t_j` (the
//       j-th smallest) is inserted, the list holds the `m` remaining rows plus the
//       j targets before it, all at positions `< t_j`; distinct targets below
//       `m + count` give `t_j ≤ m + j`, so the insert is in range, and later
//       inserts land after it and never shift it. Hence every target ends exactly
//       at its index and the remaining rows keep their order in the free slots.
// 3. Sections: replace reloaded ones in place, then, when sections are deleted,
//    inserted or moved, rebuild the section array from the `SectionMap` (targets at
//    their index, the rest in order) — the same rule, with O(sections) work.
// 4. Keep the id index exact: remove the ids that left, add those that joined.
// 5. Apply the table properties, bump `version`, answer the normalised batch.
//
// ## Invariants
// - A refused batch changes nothing; an accepted one changes the table exactly as
//   its normalised batch describes, so replaying published batches rebuilds it.
// - `ids` holds exactly the ids of the table's sections and rows.
// - An empty batch (no operation, no property) changes nothing, not even `version`.
//
// ## Complexity (k operations, n rows, S sections)
// O(k log k) to sort and check, O(k log n) to reload, remove and insert rows in the
// counted B-tree of `RowList`, plus the rows of the sections the batch inserts,
// reloads or deletes (their ids enter or leave the index), plus O(S) only when
// sections are deleted, inserted or moved or `expect.rows` is given.
// A single-row edit costs O(log n), whatever the size of its section.

/// A batch validated against one version of a table, ready to apply to it:
/// `Table.prepare(_:)` makes it, `Table.apply(_:)` applies it.
public struct PreparedBatch: Sendable {
    /// The normalised batch: what the change publishes.
    public let batch: Batch
    let plan: BatchPlan
    /// The table's version it was validated against.
    public let version: Int
}

extension Table {
    /// Applies `batch` as one version step, as `performBatchUpdates` does.
    ///
    /// Validates the whole batch first: when it breaks a rule, throws the first
    /// refusal in UIKit's words and leaves the table exactly as it was. Otherwise
    /// applies it, increments `version` (unless the batch is empty) and answers the
    /// normalised batch to publish: lists sorted by position, inserted and reloaded
    /// items in full, `expect` dropped, `animation` kept.
    public mutating func apply(_ batch: Batch) throws(BatchError) -> Batch {
        // A view's table keeps no id index until a batch from outside comes (`idIndex`).
        if idIndex == nil { idIndex = TableIDIndex(sections) }
        let prepared = try prepare(batch)
        apply(prepared)
        return prepared.batch
    }

    /// Applies a batch a live view made of its table's change (`LiveView`):
    /// as `apply(_:)`, except that a view that keeps no id index (`idIndex`)
    /// is not checked for duplicate ids and builds none. Its rows are some of
    /// its table's, whose ids the table's own batch checked.
    mutating func applyDerived(_ batch: Batch) throws(BatchError) -> Batch {
        let prepared = try prepare(batch, checkingIDs: idIndex != nil)
        apply(prepared)
        return prepared.batch
    }

    /// Step 1 alone: validates `batch` against the table as it is, without
    /// changing it, and answers the normalised batch with its plan. A caller that
    /// must record a change durably before making it (docs/RELIABILITY.md)
    /// records `prepared.batch` at `version + 1`, then calls `apply(_:)`.
    public func prepare(_ batch: Batch) throws(BatchError) -> PreparedBatch {
        try prepare(batch, checkingIDs: true)
    }

    /// `prepare(_:)`, with or without the check of duplicate ids.
    private func prepare(_ batch: Batch, checkingIDs: Bool) throws(BatchError) -> PreparedBatch {
        var normalised = batch.normalised()
        normalised.properties = normalised.properties?.changes(from: self)
        let plan = try BatchValidation.plan(normalised, expect: batch.expect, on: self, checkingIDs: checkingIDs)
        return PreparedBatch(batch: normalised, plan: plan, version: version)
    }

    /// Steps 2–5 for a batch `prepare(_:)` answered on this table at this
    /// version: cannot fail. An empty batch changes nothing.
    public mutating func apply(_ prepared: PreparedBatch) {
        precondition(
            prepared.version == version, "a batch prepared at version \(prepared.version) applied at \(version)")
        let normalised = prepared.batch
        guard !normalised.isEmpty else { return }
        applyRowEdits(normalised, prepared.plan)
        applySectionEdits(normalised, prepared.plan.sections)
        idIndex?.update(prepared.plan.ids)
        normalised.properties?.apply(to: &self)
        version += 1
    }

    /// Step 2: rows, addressed by section index before the batch. Each edit is
    /// O(log n); sections are edited in place, so their row trees stay unshared.
    private mutating func applyRowEdits(_ batch: Batch, _ plan: BatchPlan) {
        for item in batch.reloadRows {
            sections[item.at.section].rows[item.at.row] = item.row
        }
        var movedRows = [Row?](repeating: nil, count: batch.moveRows.count)
        for (section, removals) in plan.removals {
            for removal in removals {
                let row = sections[section].rows.remove(at: removal.row)
                if let move = removal.move { movedRows[move] = row }
            }
        }
        for (section, insertions) in plan.insertions {
            for insertion in insertions {
                let row =
                    switch insertion.source {
                    case .inserted(let row): row
                    case .moved(let move): movedRows[move]
                    }
                // Every move's source was removed above.
                guard let row else { preconditionFailure("move \(insertion) has no source row") }
                sections[section].rows.insert(row, at: insertion.row)
            }
        }
    }

    /// Step 3: sections. Reloads replace in place; deletes, inserts and moves
    /// rebuild the array in O(S), moving section values (their rows are shared, not copied).
    private mutating func applySectionEdits(_ batch: Batch, _ map: SectionMap) {
        for item in batch.reloadSections {
            sections[item.at] = item.section
        }
        guard !map.isIdentity else { return }
        var inserted = batch.insertSections.makeIterator()
        var rebuilt: [Section] = []
        rebuilt.reserveCapacity(map.countAfter)
        for index in 0..<map.countAfter {
            if let old = map.oldIndex(ofNew: index) {
                rebuilt.append(sections[old])
            } else if let item = inserted.next() {
                // Inserted sections are sorted by index, so the n-th free slot is the n-th insert.
                rebuilt.append(item.section)
            }
        }
        sections = rebuilt
    }
}
