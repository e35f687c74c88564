import HashTreeCollections

/// Checks a normalised batch against a table and builds its `BatchPlan`, or
/// throws the first rule it breaks. Reads the table, never changes it.
///
/// The checks run in a fixed order, over lists sorted by position, so that a
/// batch breaking several rules is refused with the same message whatever the
/// order of its lists:
/// 1. sections: deletes, reloads, moves, inserts (positions, repeats, conflicts);
/// 2. row sources: deletes, reloads, move sources;
/// 3. row targets: move targets, inserts, then each target against its section's
///    row count after the batch;
/// 4. ids after the batch;
/// 5. `expect`.
///
/// Cost: O(k log n) for k operations, plus O(number of sections) when sections
/// are deleted, inserted or moved or `expect.rows` is given, plus the rows of
/// deleted, reloaded and inserted sections (their ids).
struct BatchValidation {
    private let table: Table
    private let batch: Batch
    private var plan: BatchPlan

    private var deletedSections = Set<Int>()
    /// Reloaded sections by index before the batch: their new content.
    private var reloadedSections: [Int: Section] = [:]
    /// Inserted sections by index after the batch.
    private var insertedSections: [Int: Section] = [:]
    /// Section moves: target by source, and source by target.
    private var sectionMoveTargets: [Int: Int] = [:]
    private var sectionMoveSources: [Int: Int] = [:]
    private var deletedRows = Set<TableIndexPath>()
    private var reloadedRows = Set<TableIndexPath>()
    /// Move index (in `batch.moveRows`) by source and by target.
    private var movesBySource: [TableIndexPath: Int] = [:]
    private var movesByTarget: [TableIndexPath: Int] = [:]

    /// Validates `batch` (already normalised) and `expect` against `table`;
    /// without step 4 when not `checkingIDs` (a live view's own batch,
    /// `Table.applyDerived`), whose plan then changes no id.
    static func plan(
        _ batch: Batch, expect: Batch.Expectation?, on table: Table, checkingIDs: Bool = true
    ) throws(BatchError) -> BatchPlan {
        if expect == nil, let move = batch.onlyRowMove {
            return try planRowMove(move, on: table)
        }
        return try planInFull(batch, expect: expect, on: table, checkingIDs: checkingIDs)
    }

    /// `plan`, by the checks above for any batch.
    static func planInFull(
        _ batch: Batch, expect: Batch.Expectation?, on table: Table, checkingIDs: Bool = true
    ) throws(BatchError) -> BatchPlan {
        var validation = BatchValidation(table: table, batch: batch)
        try validation.checkSections()
        try validation.checkRowSources()
        try validation.checkRowTargets()
        if checkingIDs { try validation.checkIDs() }
        try validation.checkPress()
        if let expect { try validation.check(expect) }
        return validation.plan
    }

    private init(table: Table, batch: Batch) {
        self.table = table
        self.batch = batch
        // `checkSections` sets the real section map.
        plan = BatchPlan(sections: SectionMap(countBefore: 0, deleted: [], inserted: [], moves: []))
    }

    private var sectionsBefore: Int { table.sections.count }

    // MARK: 1. Sections

    private mutating func checkSections() throws(BatchError) {
        let before = sectionsBefore
        for section in batch.deleteSections {
            guard (0..<before).contains(section) else {
                throw .deleteSectionOutOfRange(section, sectionsBefore: before)
            }
            guard deletedSections.insert(section).inserted else { throw .sectionTwice("delete", section) }
        }
        for item in batch.reloadSections {
            guard (0..<before).contains(item.at) else {
                throw .deleteSectionOutOfRange(item.at, sectionsBefore: before)
            }
            guard !deletedSections.contains(item.at) else { throw .deleteAndReloadSection(item.at) }
            guard reloadedSections.updateValue(item.section, forKey: item.at) == nil else {
                throw .sectionTwice("reload", item.at)
            }
        }
        let after = before - deletedSections.count + batch.insertSections.count
        for move in batch.moveSections {
            guard (0..<before).contains(move.from) else {
                throw .moveSectionSourceOutOfRange(move.from, sectionsBefore: before)
            }
            guard (0..<after).contains(move.to) else {
                throw .moveSectionTargetOutOfRange(move, sectionsAfter: after)
            }
            if let first = sectionMoveTargets[move.from] { throw .sectionMovedToBoth(move.from, first, move.to) }
            if let other = sectionMoveSources[move.to] { throw .sectionsMovedToOne(other, move.from, to: move.to) }
            guard !deletedSections.contains(move.from) else { throw .deleteAndMoveSection(move.from) }
            guard reloadedSections[move.from] == nil else { throw .reloadAndMoveSection(move.from) }
            sectionMoveTargets[move.from] = move.to
            sectionMoveSources[move.to] = move.from
        }
        for item in batch.insertSections {
            guard (0..<after).contains(item.at) else {
                throw .insertSectionOutOfRange(item.at, sectionsAfter: after)
            }
            guard insertedSections.updateValue(item.section, forKey: item.at) == nil else {
                throw .sectionTwice("insert", item.at)
            }
            guard sectionMoveSources[item.at] == nil else { throw .insertAndMoveToSection(item.at) }
        }
        plan.sections = SectionMap(
            countBefore: before, deleted: deletedSections,
            inserted: batch.insertSections.map(\.at), moves: batch.moveSections
        )
    }

    // MARK: 2. Row sources (positions before the batch)

    /// Checks that a row source names a section that exists before the batch and
    /// that the batch neither deletes nor reloads; answers its row count.
    private func rowsBefore(
        _ indexPath: TableIndexPath, _ edit: BatchError.RowEdit,
        outOfRange: (Int) -> BatchError
    ) throws(BatchError) -> Int {
        let section = indexPath.section
        guard (0..<sectionsBefore).contains(section) else { throw outOfRange(sectionsBefore) }
        if deletedSections.contains(section) {
            throw .rowEditInReplacedSection(edit, section: section, replacement: .deleted)
        }
        if reloadedSections[section] != nil {
            throw .rowEditInReplacedSection(edit, section: section, replacement: .reloaded)
        }
        return table.sections[section].rows.count
    }

    private mutating func checkRowSources() throws(BatchError) {
        for indexPath in batch.deleteRows {
            let count = try rowsBefore(indexPath, .delete) {
                .deleteRowSectionOutOfRange(indexPath, sectionsBefore: $0)
            }
            guard (0..<count).contains(indexPath.row) else { throw .deleteRowOutOfRange(indexPath, rowsBefore: count) }
            guard deletedRows.insert(indexPath).inserted else { throw .indexPathTwice("delete", indexPath) }
            plan.removals[indexPath.section, default: []].append(RowRemoval(row: indexPath.row))
        }
        // UIKit turns a reload into a delete plus an insert: out of range, it says "delete".
        for item in batch.reloadRows {
            let indexPath = item.at
            let count = try rowsBefore(indexPath, .reload) {
                .deleteRowSectionOutOfRange(indexPath, sectionsBefore: $0)
            }
            guard (0..<count).contains(indexPath.row) else { throw .deleteRowOutOfRange(indexPath, rowsBefore: count) }
            guard !deletedRows.contains(indexPath) else { throw .deleteAndReloadIndexPath(indexPath) }
            guard reloadedRows.insert(indexPath).inserted else { throw .indexPathTwice("reload", indexPath) }
        }
        for (index, move) in batch.moveRows.enumerated() {
            let count = try rowsBefore(move.from, .moveFrom) {
                .moveRowSourceSectionOutOfRange(move, sectionsBefore: $0)
            }
            guard (0..<count).contains(move.from.row) else { throw .moveRowSourceOutOfRange(move, rowsBefore: count) }
            if let first = movesBySource[move.from] {
                throw .rowMovedToBoth(move.from, batch.moveRows[first].to, move.to)
            }
            guard !deletedRows.contains(move.from) else { throw .deleteAndMoveIndexPath(move.from) }
            guard !reloadedRows.contains(move.from) else { throw .reloadAndMoveIndexPath(move.from) }
            movesBySource[move.from] = index
            plan.removals[move.from.section, default: []].append(RowRemoval(row: move.from.row, move: index))
        }
        for (section, removals) in plan.removals {
            plan.removals[section] = removals.sorted { $0.row > $1.row }
        }
    }

    /// A recorded press names a row before the batch (with that row's id, when it has one).
    private func checkPress() throws(BatchError) {
        guard let press = batch.press else { return }
        guard let row = table.row(at: press.at), row.id == press.id else {
            throw .pressedRowMissing(press)
        }
    }

    // MARK: 3. Row targets (positions after the batch)

    /// Checks that a row target names a section that exists before and after the
    /// batch and that the batch does not reload; answers its index before the batch.
    private func oldSection(
        of indexPath: TableIndexPath, _ edit: BatchError.RowEdit,
        outOfRange: (Int) -> BatchError
    ) throws(BatchError) -> Int {
        let section = indexPath.section
        guard (0..<plan.sections.countAfter).contains(section) else { throw outOfRange(plan.sections.countAfter) }
        guard let old = plan.sections.oldIndex(ofNew: section) else {
            throw .rowEditInReplacedSection(edit, section: section, replacement: .inserted)
        }
        if reloadedSections[old] != nil {
            throw .rowEditInReplacedSection(edit, section: section, replacement: .reloaded)
        }
        return old
    }

    private mutating func checkRowTargets() throws(BatchError) {
        for (index, move) in batch.moveRows.enumerated() {
            let old = try oldSection(of: move.to, .moveTo) { .moveRowTargetSectionOutOfRange(move, sectionsAfter: $0) }
            if let other = movesByTarget[move.to] {
                throw .rowsMovedToOne(batch.moveRows[other].from, move.from, to: move.to)
            }
            movesByTarget[move.to] = index
            plan.insertions[old, default: []].append(RowInsertion(row: move.to.row, source: .moved(index)))
        }
        var insertedRows = Set<TableIndexPath>()
        for item in batch.insertRows {
            let indexPath = item.at
            let old = try oldSection(of: indexPath, .insert) {
                .insertRowSectionOutOfRange(indexPath, sectionsAfter: $0)
            }
            guard insertedRows.insert(indexPath).inserted else { throw .indexPathTwice("insert", indexPath) }
            guard movesByTarget[indexPath] == nil else { throw .insertAndMoveToIndexPath(indexPath) }
            plan.insertions[old, default: []].append(RowInsertion(row: indexPath.row, source: .inserted(item.row)))
        }
        // Every target must fall inside its section after the batch; they are distinct,
        // so they then fit exactly among the remaining rows.
        // Sections are checked in their order after the batch.
        let targets = plan.insertions
            .map { (old: $0.key, new: plan.sections.newIndex(ofOld: $0.key) ?? -1, insertions: $0.value) }
            .sorted { $0.new < $1.new }
        for (old, new, insertions) in targets {
            let sorted = insertions.sorted { $0.row < $1.row }
            plan.insertions[old] = sorted
            let count = rowCountAfter(old: old)
            guard let outside = sorted.first(where: { $0.row < 0 || $0.row >= count }) else { continue }
            switch outside.source {
            case .inserted:
                throw .insertRowOutOfRange(TableIndexPath(new, outside.row), rowsAfter: count)
            case .moved(let index):
                throw .moveRowTargetOutOfRange(batch.moveRows[index], rowsAfter: count)
            }
        }
    }

    /// The row count after the batch of a section that exists before and after it
    /// and is not reloaded.
    private func rowCountAfter(old: Int) -> Int {
        table.sections[old].rows.count - (plan.removals[old]?.count ?? 0) + (plan.insertions[old]?.count ?? 0)
    }

    /// The row count after the batch of the section at `new` after it.
    private func rowCountAfter(new: Int) -> Int {
        guard let old = plan.sections.oldIndex(ofNew: new) else {
            return insertedSections[new]?.rows.count ?? 0
        }
        if let reloaded = reloadedSections[old] { return reloaded.rows.count }
        return rowCountAfter(old: old)
    }

    // MARK: 4. Ids

    private mutating func checkIDs() throws(BatchError) {
        var ids = IDChanges()
        for section in batch.deleteSections {
            Self.collectIDs(of: table.sections[section], sections: &ids.removedSectionIDs, rows: &ids.removedRowIDs)
        }
        for item in batch.reloadSections {
            Self.collectIDs(of: table.sections[item.at], sections: &ids.removedSectionIDs, rows: &ids.removedRowIDs)
        }
        for indexPath in batch.deleteRows {
            if let id = table.sections[indexPath.section].rows[indexPath.row].id { ids.removedRowIDs.append(id) }
        }
        for item in batch.reloadRows {
            if let id = table.sections[item.at.section].rows[item.at.row].id { ids.removedRowIDs.append(id) }
        }
        for item in batch.insertSections + batch.reloadSections {
            Self.collectIDs(of: item.section, sections: &ids.addedSectionIDs, rows: &ids.addedRowIDs)
        }
        for item in batch.insertRows + batch.reloadRows {
            if let id = item.row.id { ids.addedRowIDs.append(id) }
        }
        try Self.checkUnique(
            ids.addedSectionIDs, removed: ids.removedSectionIDs, in: table.ids.sectionIDs, BatchError.duplicateSectionID
        )
        try Self.checkUnique(
            ids.addedRowIDs, removed: ids.removedRowIDs, in: table.ids.rowIDs, BatchError.duplicateRowID)
        plan.ids = ids
    }

    private static func collectIDs(of section: Section, sections: inout [String], rows: inout [String]) {
        if let id = section.id { sections.append(id) }
        for row in section.rows {
            if let id = row.id { rows.append(id) }
        }
    }

    /// Refuses an added id given twice, or already in use and not freed by the batch.
    private static func checkUnique(
        _ added: [String], removed: [String], in existing: TreeSet<String>,
        _ error: (String) -> BatchError
    ) throws(BatchError) {
        guard !added.isEmpty else { return }
        let freed = Set(removed)
        var seen = Set<String>()
        for id in added {
            guard seen.insert(id).inserted, !existing.contains(id) || freed.contains(id) else { throw error(id) }
        }
    }

    // MARK: 5. Expected counts

    private func check(_ expect: Batch.Expectation) throws(BatchError) {
        let after = plan.sections.countAfter
        // UIKit counts a reloaded section as one deleted and one inserted.
        let sectionCountError = { (expected: Int) in
            BatchError.invalidSectionCount(
                expected: expected, before: sectionsBefore,
                inserted: batch.insertSections.count + batch.reloadSections.count,
                deleted: batch.deleteSections.count + batch.reloadSections.count
            )
        }
        if let sections = expect.sections, sections != after { throw sectionCountError(sections) }
        guard let rows = expect.rows else { return }
        guard rows.count == after else { throw sectionCountError(rows.count) }
        for (section, expected) in rows.enumerated() {
            let actual = rowCountAfter(new: section)
            guard expected != actual else { continue }
            guard let old = plan.sections.oldIndex(ofNew: section), reloadedSections[old] == nil else {
                throw .invalidRowCountInNewSection(section: section, actual: actual, expected: expected)
            }
            throw .invalidRowCount(section: section, expected: expected, counts: rowCounts(new: section, old: old))
        }
    }

    /// What the batch does to the rows of a section that exists before and after
    /// it, counted as UIKit counts: a reload is one deleted and one inserted row, a
    /// move within the section is neither moved in nor out.
    private func rowCounts(new: Int, old: Int) -> BatchError.RowCounts {
        var counts = BatchError.RowCounts(before: table.sections[old].rows.count)
        counts.inserted = batch.insertRows.count { $0.at.section == new }
        counts.deleted = batch.deleteRows.count { $0.section == old }
        let reloads = batch.reloadRows.count { $0.at.section == old }
        counts.inserted += reloads
        counts.deleted += reloads
        for move in batch.moveRows where plan.sections.newIndex(ofOld: move.from.section) != move.to.section {
            if move.to.section == new { counts.movedIn += 1 }
            if move.from.section == old { counts.movedOut += 1 }
        }
        return counts
    }
}
