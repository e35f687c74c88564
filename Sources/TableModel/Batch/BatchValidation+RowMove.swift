extension BatchValidation {
    /// The plan of a batch that moves one row and does nothing else — what a
    /// drag in the table makes, the commonest edit — by the checks of
    /// `planInFull` that such a batch can break, in the same order and with the
    /// same errors (`BatchRowMoveTests` holds the two to each other), without
    /// the sets and maps that a batch of many edits needs. O(1) after the
    /// sections' row counts.
    static func planRowMove(_ move: Batch.RowMove, on table: Table) throws(BatchError) -> BatchPlan {
        let sections = table.sections.count
        guard (0..<sections).contains(move.from.section) else {
            throw .moveRowSourceSectionOutOfRange(move, sectionsBefore: sections)
        }
        let rowsBefore = table.sections[move.from.section].rows.count
        guard (0..<rowsBefore).contains(move.from.row) else {
            throw .moveRowSourceOutOfRange(move, rowsBefore: rowsBefore)
        }
        guard (0..<sections).contains(move.to.section) else {
            throw .moveRowTargetSectionOutOfRange(move, sectionsAfter: sections)
        }
        // The target's section loses the row when it is the source's, and gains it otherwise.
        let rowsAfter = table.sections[move.to.section].rows.count + (move.to.section == move.from.section ? 0 : 1)
        guard (0..<rowsAfter).contains(move.to.row) else {
            throw .moveRowTargetOutOfRange(move, rowsAfter: rowsAfter)
        }
        var plan = BatchPlan(sections: SectionMap(countBefore: sections, deleted: [], inserted: [], moves: []))
        plan.removals = [move.from.section: [RowRemoval(row: move.from.row, move: 0)]]
        plan.insertions = [move.to.section: [RowInsertion(row: move.to.row, source: .moved(0))]]
        return plan
    }
}

extension Batch {
    /// The batch's one row move, when it moves one row and does nothing else
    /// (no other edit, property, press or expectation).
    var onlyRowMove: RowMove? {
        guard moveRows.count == 1, deleteSections.isEmpty, insertSections.isEmpty, reloadSections.isEmpty,
            moveSections.isEmpty, deleteRows.isEmpty, insertRows.isEmpty, reloadRows.isEmpty,
            properties == nil, press == nil, expect == nil
        else {
            return nil
        }
        return moveRows[0]
    }
}
