/// Every refusal of a batch, in UIKit's own words.
///
/// Where `UITableView` (`-[UITableView _endCellAnimationsWithContext:]`) has an
/// assertion for a rule, its text is reproduced exactly — including UIKit's own
/// "attempt to to move section" — with UIKit's `(%@)` of an `NSIndexPath` written
/// as `[section, row]`, and with a single space after each sentence's full stop.
/// UIKit turns a reload into a delete plus an insert, so a reload out of range is
/// refused with the delete's words, and `Invalid update` counts a reload as one
/// inserted and one deleted item. Rules UIKit does not check (row edits in a
/// replaced section, the same position twice, duplicated ids, `expect` for a new
/// section) are worded in the same style.
extension BatchError {
    init(_ rule: Rule, _ detail: String) {
        self.init(type: rule.rawValue, detail: detail)
    }

    // MARK: Positions out of range (`index-out-of-range`)

    static func deleteSectionOutOfRange(_ section: Int, sectionsBefore: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to delete section \(section), but there are only \(sectionsBefore) sections before the update")
    }

    static func insertSectionOutOfRange(_ section: Int, sectionsAfter: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to insert section \(section) but there are only \(sectionsAfter) sections after the update")
    }

    static func moveSectionSourceOutOfRange(_ section: Int, sectionsBefore: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to move section \(section), but there are only \(sectionsBefore) sections before the update")
    }

    static func moveSectionTargetOutOfRange(_ move: Batch.SectionMove, sectionsAfter: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to to move section \(move.from) to section \(move.to), but there are only \(sectionsAfter) sections after the update"
        )
    }

    static func deleteRowSectionOutOfRange(_ indexPath: TableIndexPath, sectionsBefore: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to delete row \(indexPath.row) from section \(indexPath.section), but there are only \(sectionsBefore) sections before the update"
        )
    }

    static func pressedRowMissing(_ press: Batch.Press) -> Self {
        let name = press.id.map { "row \"\($0)\"" } ?? "a row without an id"
        return Self(
            .indexOutOfRange,
            "attempt to press the accessory button of \(name) at index path (\(press.at)), which is not in the table before the update"
        )
    }

    static func deleteRowOutOfRange(_ indexPath: TableIndexPath, rowsBefore: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to delete row \(indexPath.row) from section \(indexPath.section) which only contains \(rowsBefore) rows before the update"
        )
    }

    static func insertRowSectionOutOfRange(_ indexPath: TableIndexPath, sectionsAfter: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to insert row \(indexPath.row) into section \(indexPath.section), but there are only \(sectionsAfter) sections after the update"
        )
    }

    static func insertRowOutOfRange(_ indexPath: TableIndexPath, rowsAfter: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to insert row \(indexPath.row) into section \(indexPath.section), but there are only \(rowsAfter) rows in section \(indexPath.section) after the update"
        )
    }

    static func moveRowSourceSectionOutOfRange(_ move: Batch.RowMove, sectionsBefore: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to move index path (\(move.from)) from a section that does not exist - there are only \(sectionsBefore) sections before the update"
        )
    }

    static func moveRowSourceOutOfRange(_ move: Batch.RowMove, rowsBefore: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to move index path (\(move.from)) that does not exist - there are only \(rowsBefore) rows in section \(move.from.section) before the update"
        )
    }

    static func moveRowTargetSectionOutOfRange(_ move: Batch.RowMove, sectionsAfter: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to move index path (\(move.from)) to index path (\(move.to)) in section that does not exist - there are only \(sectionsAfter) sections after the update"
        )
    }

    static func moveRowTargetOutOfRange(_ move: Batch.RowMove, rowsAfter: Int) -> Self {
        Self(
            .indexOutOfRange,
            "attempt to move index path (\(move.from)) to index path (\(move.to)) that does not exist - there are only \(rowsAfter) rows in section \(move.to.section) after the update"
        )
    }

    // MARK: The same position twice in one list (`duplicate-position`)

    static func sectionTwice(_ verb: String, _ section: Int) -> Self {
        Self(.duplicatePosition, "attempt to \(verb) section \(section) twice in the same update")
    }

    static func indexPathTwice(_ verb: String, _ indexPath: TableIndexPath) -> Self {
        Self(.duplicatePosition, "attempt to \(verb) index path (\(indexPath)) twice in the same update")
    }

    static func sectionMovedToBoth(_ from: Int, _ first: Int, _ second: Int) -> Self {
        if first == second { return sectionTwice("move", from) }
        return Self(
            .duplicatePosition, "attempt to move section \(from) to both section \(first) and section \(second)")
    }

    static func sectionsMovedToOne(_ first: Int, _ second: Int, to target: Int) -> Self {
        Self(.duplicatePosition, "attempt to move both section \(first) and section \(second) to section \(target)")
    }

    static func rowMovedToBoth(_ from: TableIndexPath, _ first: TableIndexPath, _ second: TableIndexPath) -> Self {
        if first == second { return indexPathTwice("move", from) }
        return Self(.duplicatePosition, "attempt to move row at index path \(from) to both \(first) and \(second)")
    }

    static func rowsMovedToOne(_ first: TableIndexPath, _ second: TableIndexPath, to target: TableIndexPath) -> Self {
        Self(.duplicatePosition, "attempt to move both row at index path \(first) and \(second) to \(target)")
    }

    // MARK: Two items aimed at one final position (`duplicate-target`)

    static func insertAndMoveToSection(_ section: Int) -> Self {
        Self(.duplicateTarget, "attempt to perform an insert and a move to the same section (\(section))")
    }

    static func insertAndMoveToIndexPath(_ indexPath: TableIndexPath) -> Self {
        Self(.duplicateTarget, "attempt to perform an insert and a move to the same index path (\(indexPath))")
    }

    // MARK: One item named by two operations

    static func deleteAndReloadSection(_ section: Int) -> Self {
        Self(.deleteAndReload, "attempt to delete and reload the same section (\(section))")
    }

    static func deleteAndReloadIndexPath(_ indexPath: TableIndexPath) -> Self {
        Self(.deleteAndReload, "attempt to delete and reload the same index path (\(indexPath))")
    }

    static func deleteAndMoveSection(_ section: Int) -> Self {
        Self(.deleteAndMove, "attempt to perform a delete and a move from the same section (\(section))")
    }

    static func deleteAndMoveIndexPath(_ indexPath: TableIndexPath) -> Self {
        Self(.deleteAndMove, "attempt to perform a delete and a move from the same index path (\(indexPath))")
    }

    static func reloadAndMoveSection(_ section: Int) -> Self {
        Self(.reloadAndMove, "attempt to reload and move the same section (\(section))")
    }

    /// A reload is a delete plus an insert, so UIKit words it as a delete.
    static func reloadAndMoveIndexPath(_ indexPath: TableIndexPath) -> Self {
        Self(.reloadAndMove, "attempt to perform a delete and a move from the same index path (\(indexPath))")
    }

    // MARK: Row edits in a section the batch replaces (`row-in-replaced-section`)

    /// How a section is replaced by the batch, as named in the messages.
    enum Replacement {
        case deleted, reloaded, inserted
    }

    /// Sources (delete, reload, move from) are only ever in deleted or reloaded
    /// sections, targets (insert, move to) in inserted or reloaded ones.
    static func rowEditInReplacedSection(
        _ edit: RowEdit, section: Int, replacement: Replacement
    ) -> Self {
        let detail =
            switch (edit, replacement) {
            case (.moveFrom, .deleted): "cannot move a row from a deleted section"
            case (.moveTo, .inserted): "cannot move a row into a newly inserted section (\(section))"
            case (.insert, .inserted): "cannot insert a row into a newly inserted section (\(section))"
            case (.delete, .deleted): "cannot delete a row from a deleted section (\(section))"
            case (.reload, .deleted): "cannot reload a row in a deleted section (\(section))"
            case (.delete, _): "cannot delete a row from a reloaded section (\(section))"
            case (.reload, _): "cannot reload a row in a reloaded section (\(section))"
            case (.moveFrom, _): "cannot move a row from a reloaded section (\(section))"
            case (.moveTo, _): "cannot move a row into a reloaded section (\(section))"
            case (.insert, _): "cannot insert a row into a reloaded section (\(section))"
            }
        return Self(.rowInReplacedSection, detail)
    }

    /// The row edits, as named in the messages.
    enum RowEdit {
        case delete, reload, moveFrom, insert, moveTo
    }

    // MARK: Ids (`duplicate-id`)

    static func duplicateSectionID(_ id: String) -> Self {
        Self(.duplicateID, "duplicate section id \"\(id)\" after the update")
    }

    static func duplicateRowID(_ id: String) -> Self {
        Self(.duplicateID, "duplicate row id \"\(id)\" after the update")
    }

    // MARK: Counts the data source promised (`invalid-update`)

    static func invalidSectionCount(expected: Int, before: Int, inserted: Int, deleted: Int) -> Self {
        Self(
            .invalidUpdate,
            "Invalid update: invalid number of sections. The number of sections contained in the table view after the update (\(expected)) must be equal to the number of sections contained in the table view before the update (\(before)), plus or minus the number of sections inserted or deleted (\(inserted) inserted, \(deleted) deleted)."
        )
    }

    /// What a batch does to the rows of a section that exists before and after it.
    struct RowCounts {
        var before = 0
        var inserted = 0
        var deleted = 0
        var movedIn = 0
        var movedOut = 0
    }

    static func invalidRowCount(section: Int, expected: Int, counts: RowCounts) -> Self {
        Self(
            .invalidUpdate,
            "Invalid update: invalid number of rows in section \(section). The number of rows contained in an existing section after the update (\(expected)) must be equal to the number of rows contained in that section before the update (\(counts.before)), plus or minus the number of rows inserted or deleted from that section (\(counts.inserted) inserted, \(counts.deleted) deleted) and plus or minus the number of rows moved into or out of that section (\(counts.movedIn) moved in, \(counts.movedOut) moved out)."
        )
    }

    static func invalidRowCountInNewSection(section: Int, actual: Int, expected: Int) -> Self {
        Self(
            .invalidUpdate,
            "Invalid update: invalid number of rows in section \(section). The section holds \(actual) rows after the update, expected \(expected)."
        )
    }
}
