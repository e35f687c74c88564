/// Writing out the batches the stages of `SnapshotDiff.swift` decided: positions
/// follow the T0–T3 scheme described there.
extension SnapshotDiffer {
    /// The non-empty batches in order, table properties on the first.
    func batches() -> [Batch] {
        var batches = [openingBatch(), mainBatch(), closingBatch()].filter { !$0.isEmpty }
        if let properties = changedProperties() {
            if batches.isEmpty { batches.append(Batch()) }
            batches[0].properties = properties
        }
        return batches.map { $0.normalised() }
    }

    /// The table properties that differ, or nil when none does.
    func changedProperties() -> TableProperties? {
        var properties = TableProperties()
        if oldTable.title != newTable.title { properties.title = .some(newTable.title) }
        if oldTable.style != newTable.style { properties.style = newTable.style }
        if oldTable.header != newTable.header { properties.header = .some(newTable.header) }
        if oldTable.footer != newTable.footer { properties.footer = .some(newTable.footer) }
        if oldTable.rowHeight != newTable.rowHeight { properties.rowHeight = newTable.rowHeight }
        if oldTable.allowsSelection != newTable.allowsSelection {
            properties.allowsSelection = newTable.allowsSelection
        }
        if oldTable.defaultView != newTable.defaultView { properties.defaultView = .some(newTable.defaultView) }
        if oldTable.source != newTable.source { properties.source = .some(newTable.source) }
        if oldTable.access != newTable.access { properties.access = .some(newTable.access) }
        if oldTable.allowsMultipleSelection != newTable.allowsMultipleSelection {
            properties.allowsMultipleSelection = newTable.allowsMultipleSelection
        }
        return properties.isEmpty ? nil : properties
    }

    /// Positions before the opening batch (T0) and before the main batch (T1) of old row `oldRow`.
    func t0Path(_ oldRow: Int) -> TableIndexPath {
        TableIndexPath(old.sectionOf[oldRow], old.rowIndex(oldRow))
    }

    func t1Path(_ oldRow: Int) -> TableIndexPath {
        TableIndexPath(t1OfOld[old.sectionOf[oldRow]], old.rowIndex(oldRow))
    }

    /// Position after the main batch (T2) of new row `newRow`.
    func t2Path(_ newRow: Int) -> TableIndexPath {
        TableIndexPath(t2OfNew[new.sectionOf[newRow]], new.rowIndex(newRow))
    }

    // MARK: Opening batch (T0 → T1)

    func openingBatch() -> Batch {
        var batch = Batch()
        for newSection in new.sections.indices where insertedEarly[newSection] {
            // Only its brand-new rows: the matched ones move in with the main batch.
            var section = new.sections[newSection]
            section.rows = RowList(
                new.rows(of: newSection).lazy.filter { rows.newToOld[$0] < 0 }.map { new.row($0) }
            )
            batch.insertSections.append(Batch.SectionItem(at: t1OfNew[newSection], section: section))
        }
        guard stage == .opening else { return batch }
        for newSection in new.sections.indices where reloadedInStage[newSection] {
            // The new header, footer and index title over the old rows, each with its new content.
            let oldSection = sections.newToOld[newSection]
            var section = new.sections[newSection]
            section.rows = RowList(
                old.rows(of: oldSection).lazy.map { oldRow in
                    let newRow = rows.oldToNew[oldRow]
                    return newRow >= 0 && rowChanged[newRow] ? new.row(newRow) : old.row(oldRow)
                }
            )
            batch.reloadSections.append(Batch.SectionItem(at: oldSection, section: section))
        }
        for newRow in new.indices where update(of: newRow) == .stage {
            batch.reloadRows.append(Batch.RowItem(at: t0Path(rows.newToOld[newRow]), row: new.row(newRow)))
        }
        return batch
    }

    // MARK: Main batch (T1 → T2)

    func mainBatch() -> Batch {
        var batch = Batch()
        for (position, ref) in t1.enumerated() {
            if case .old(let oldSection) = ref, sections.oldToNew[oldSection] < 0, !deletedLate[oldSection] {
                batch.deleteSections.append(position)
            }
        }
        for newSection in new.sections.indices {
            let oldSection = sections.newToOld[newSection]
            let isNew = oldSection < 0 && !insertedEarly[newSection]
            if isNew {
                // Every row of a section the main batch inserts is new: it carries them.
                batch.insertSections.append(
                    Batch.SectionItem(at: t2OfNew[newSection], section: new.sections[newSection])
                )
                continue
            }
            if sectionMoved[newSection] {
                batch.moveSections.append(Batch.SectionMove(from: t1OfSection(newSection), to: t2OfNew[newSection]))
            }
            if foldedInMain[newSection] {
                batch.reloadSections.append(
                    Batch.SectionItem(at: t1OfOld[oldSection], section: new.sections[newSection])
                )
                continue
            }
            if oldSection >= 0 {
                for oldRow in old.rows(of: oldSection) where rows.oldToNew[oldRow] < 0 {
                    batch.deleteRows.append(t1Path(oldRow))
                }
            }
            for newRow in new.rows(of: newSection) {
                let oldRow = rows.newToOld[newRow]
                if oldRow < 0 {
                    // An early section already holds its new rows.
                    if oldSection >= 0 {
                        batch.insertRows.append(Batch.RowItem(at: t2Path(newRow), row: new.row(newRow)))
                    }
                } else if !rowMoved[newRow] && update(of: newRow) == .main {
                    batch.reloadRows.append(Batch.RowItem(at: t1Path(oldRow), row: new.row(newRow)))
                }
            }
        }
        // Moves in old order, so already by source as a batch lists them (`Batch.normalised`);
        // none in a section the main batch reloads, whose reload places its rows.
        for oldRow in old.indices {
            let newRow = rows.oldToNew[oldRow]
            if newRow >= 0 && rowMoved[newRow] && !foldedInMain[new.sectionOf[newRow]] {
                batch.moveRows.append(Batch.RowMove(from: t1Path(oldRow), to: t2Path(newRow)))
            }
        }
        return batch
    }

    // MARK: Closing batch (T2 → T3)

    func closingBatch() -> Batch {
        var batch = Batch()
        for oldSection in old.sections.indices where deletedLate[oldSection] {
            batch.deleteSections.append(t2OfOld[oldSection])
        }
        guard stage == .closing else { return batch }
        for newSection in new.sections.indices where reloadedInStage[newSection] {
            batch.reloadSections.append(Batch.SectionItem(at: t2OfNew[newSection], section: new.sections[newSection]))
        }
        for newRow in new.indices where update(of: newRow) == .stage {
            batch.reloadRows.append(Batch.RowItem(at: t2Path(newRow), row: new.row(newRow)))
        }
        return batch
    }
}
