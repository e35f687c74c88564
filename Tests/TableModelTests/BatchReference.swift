@testable import TableModel

/// A deliberately simple batch engine, written from the rules of docs/API.md, "A batch", alone, to check the
/// real one against: plain arrays, every rule as an obvious test, and the final
/// lists built by placing every target and filling the free slots with the
/// remaining items in order. Quadratic where it is easier to read; tables are small.
enum ReferenceBatch {
    /// `table` after `batch`, or nil when the batch breaks a rule.
    static func apply(_ batch: Batch, to table: Table) -> Table? {
        let oldSections = table.sections
        let sectionCount = oldSections.count
        let deleted = batch.deleteSections
        let reloaded = batch.reloadSections.map(\.at)
        let movedFrom = batch.moveSections.map(\.from)
        let newCount = sectionCount - deleted.count + batch.insertSections.count
        let inserted = batch.insertSections.map(\.at)
        let movedTo = batch.moveSections.map(\.to)

        // Section positions: in range on their side of the batch, each list without
        // repeats, no section both deleted/reloaded/moved, no two items at one target.
        guard (deleted + reloaded + movedFrom).allSatisfy({ inRange($0, sectionCount) }),
            (inserted + movedTo).allSatisfy({ inRange($0, newCount) }),
            distinct(deleted + reloaded + movedFrom),
            distinct(inserted + movedTo)
        else { return nil }

        // The sections after the batch, as the index before it (nil: inserted).
        var sectionSlots = [Int??](repeating: nil, count: newCount)
        for target in inserted { sectionSlots[target] = .some(nil) }
        for move in batch.moveSections { sectionSlots[move.to] = .some(move.from) }
        let remainingSections = (0..<sectionCount).filter { !deleted.contains($0) && !movedFrom.contains($0) }
        let oldIndexOfNew = fill(sectionSlots, with: remainingSections.map(Optional.some))

        // Sections whose rows may be edited: they exist on both sides and are not reloaded.
        func editableBefore(_ section: Int) -> Bool {
            inRange(section, sectionCount) && !deleted.contains(section) && !reloaded.contains(section)
        }
        func editableAfter(_ section: Int) -> Bool {
            guard inRange(section, newCount), let old = oldIndexOfNew[section] else { return false }
            return !reloaded.contains(old)
        }

        let deletedRows = batch.deleteRows
        let reloadedRows = batch.reloadRows.map(\.at)
        let movedRowsFrom = batch.moveRows.map(\.from)
        let insertedRows = batch.insertRows.map(\.at)
        let movedRowsTo = batch.moveRows.map(\.to)
        guard
            (deletedRows + reloadedRows + movedRowsFrom).allSatisfy({
                editableBefore($0.section) && inRange($0.row, oldSections[$0.section].rows.count)
            }),
            (insertedRows + movedRowsTo).allSatisfy({ editableAfter($0.section) }),
            distinct(deletedRows + reloadedRows + movedRowsFrom),
            distinct(insertedRows + movedRowsTo)
        else { return nil }

        var newSections: [Section] = []
        for (newIndex, oldIndex) in oldIndexOfNew.enumerated() {
            guard let oldIndex else {
                newSections.append(batch.insertSections.first { $0.at == newIndex }!.section)
                continue
            }
            if let reload = batch.reloadSections.first(where: { $0.at == oldIndex }) {
                newSections.append(reload.section)
                continue
            }
            // Rows: the remaining ones (reloaded in place), the targets placed exactly.
            let oldRows = Array(oldSections[oldIndex].rows)
            var remaining: [Row] = []
            for (index, row) in oldRows.enumerated() {
                let path = TableIndexPath(oldIndex, index)
                if deletedRows.contains(path) || movedRowsFrom.contains(path) { continue }
                remaining.append(batch.reloadRows.first { $0.at == path }?.row ?? row)
            }
            var targets: [(row: Int, content: Row)] = []
            for item in batch.insertRows where item.at.section == newIndex {
                targets.append((item.at.row, item.row))
            }
            for move in batch.moveRows where move.to.section == newIndex {
                targets.append((move.to.row, oldSections[move.from.section].rows[move.from.row]))
            }
            let rowCount = remaining.count + targets.count
            guard targets.allSatisfy({ inRange($0.row, rowCount) }) else { return nil }
            var rowSlots = [Row?](repeating: nil, count: rowCount)
            for target in targets { rowSlots[target.row] = target.content }
            var section = oldSections[oldIndex]
            section.rows = RowList(fill(rowSlots, with: remaining))
            newSections.append(section)
        }

        // Ids are checked on the table after the batch.
        guard distinct(newSections.compactMap(\.id)),
            distinct(newSections.flatMap { $0.rows.compactMap(\.id) })
        else { return nil }

        if let expect = batch.expect {
            if let sections = expect.sections, sections != newSections.count { return nil }
            if let rows = expect.rows, rows != newSections.map(\.rows.count) { return nil }
        }

        var result = Table(
            id: table.id, title: table.title, style: table.style, header: table.header,
            footer: table.footer, rowHeight: table.rowHeight, allowsSelection: table.allowsSelection,
            allowsMultipleSelection: table.allowsMultipleSelection, version: table.version,
            sections: newSections
        )
        if let properties = batch.properties {
            if let title = properties.title { result.title = title }
            if let style = properties.style { result.style = style }
            if let header = properties.header { result.header = header }
            if let footer = properties.footer { result.footer = footer }
            if let rowHeight = properties.rowHeight { result.rowHeight = rowHeight }
            if let value = properties.allowsSelection { result.allowsSelection = value }
            if let value = properties.allowsMultipleSelection { result.allowsMultipleSelection = value }
        }
        if !batch.isEmpty { result.version += 1 }
        return result
    }

    private static func inRange(_ index: Int, _ count: Int) -> Bool {
        index >= 0 && index < count
    }

    private static func distinct<T: Hashable>(_ items: [T]) -> Bool {
        Set(items).count == items.count
    }

    /// `slots` with every empty slot filled, in order, from `remaining`.
    private static func fill<T>(_ slots: [T?], with remaining: [T]) -> [T] {
        var rest = remaining.makeIterator()
        return slots.map { $0 ?? rest.next()! }
    }
}
