// A frozen copy of SnapshotDiff as it was at commit e4c63e0 (before the symbol
// table and the flat snapshot without row copies), kept only to compare against
// in `ModelBench diff`. Do not edit: it is the baseline, not the product.
import TableModel

/// Building blocks of `FrozenSnapshotDiff` (see `FrozenSnapshotDiff.swift`): the flattened
/// form of a table, identity matching through hash tables, and the longest
/// increasing subsequence that decides which items stay put.

/// The rows of a table in one array, with where each section's rows begin.
///
/// A row is named by its flat index `f`; its section is `sectionOf[f]` and its
/// row index inside that section `f - start[sectionOf[f]]`.
struct FrozenFlatSnapshot {
    let sections: [Section]
    let rows: [Row]
    /// `start[s]` is the flat index of section `s`'s first row;
    /// `start[sections.count] == rows.count`.
    let start: [Int]
    /// The section of each flat row.
    let sectionOf: [Int]
    /// True when at least one row has no id (and so is matched by content).
    let hasRowsWithoutID: Bool

    init(_ sections: [Section]) {
        self.sections = sections
        var rows: [Row] = []
        var start: [Int] = []
        var sectionOf: [Int] = []
        let total = sections.reduce(0) { $0 + $1.rows.count }
        rows.reserveCapacity(total)
        sectionOf.reserveCapacity(total)
        start.reserveCapacity(sections.count + 1)
        for (index, section) in sections.enumerated() {
            start.append(rows.count)
            rows.append(contentsOf: section.rows)
            sectionOf.append(contentsOf: repeatElement(index, count: section.rows.count))
        }
        start.append(rows.count)
        self.rows = rows
        self.start = start
        self.sectionOf = sectionOf
        hasRowsWithoutID = rows.contains { $0.id == nil }
    }

    /// The flat indexes of the rows of section `section`.
    func rows(of section: Int) -> Range<Int> { start[section]..<start[section + 1] }

    /// The row index of flat row `flat` inside its section.
    func rowIndex(_ flat: Int) -> Int { flat - start[sectionOf[flat]] }
}

/// What makes two sections the same section: their id, or for sections without
/// one their own content — header, footer and index title, not their rows (as
/// DifferenceKit identifies an `ArraySection` by its model, not its elements).
enum FrozenSectionIdentity: Hashable {
    case id(String)
    case content(header: String?, footer: String?, indexTitle: String?)

    init(_ section: Section) {
        if let id = section.id {
            self = .id(id)
        } else {
            self = .content(header: section.header, footer: section.footer, indexTitle: section.indexTitle)
        }
    }
}

/// Which old item each new item is, and back: `-1` where there is none.
struct FrozenMatching {
    var oldToNew: [Int]
    var newToOld: [Int]
    /// Scratch for `pair`: the next old occurrence of the same key.
    private var next: [Int]

    init(oldCount: Int, newCount: Int) {
        oldToNew = [Int](repeating: -1, count: oldCount)
        newToOld = [Int](repeating: -1, count: newCount)
        next = [Int](repeating: -1, count: oldCount)
    }

    /// Pairs the still unmatched old items in `oldRange` with the still unmatched
    /// new items in `newRange` whose keys are equal (nil: no key).
    ///
    /// Heckel's symbol table: one pass over the old items, backwards, leaves for
    /// each key the first old occurrence with a chain (`next`) to the following
    /// ones; one pass over the new items takes occurrences off the front, so
    /// repeated equal keys pair up in order (first with first, second with
    /// second) and extra ones stay unmatched. O(old + new) hashings.
    mutating func pair<Key: Hashable>(
        old oldRange: Range<Int>,
        new newRange: Range<Int>,
        oldKey: (Int) -> Key?,
        newKey: (Int) -> Key?
    ) {
        var heads: [Key: Int] = [:]
        heads.reserveCapacity(oldRange.reduce(0) { oldToNew[$1] < 0 ? $0 + 1 : $0 })
        for old in oldRange.reversed() where oldToNew[old] < 0 {
            guard let key = oldKey(old) else { continue }
            next[old] = heads.updateValue(old, forKey: key) ?? -1
        }
        guard !heads.isEmpty else { return }
        for new in newRange where newToOld[new] < 0 {
            guard let key = newKey(new), let slot = heads.index(forKey: key) else { continue }
            let old = heads.values[slot]
            guard old >= 0 else { continue }
            heads.values[slot] = next[old]
            oldToNew[old] = new
            newToOld[new] = old
        }
    }
}

/// Marks the elements of one longest strictly increasing subsequence of `values`.
///
/// Patience sorting: `tails[k]` is the index of the smallest value that ends an
/// increasing run of length `k + 1`; each value binary-searches its place and
/// links to its predecessor. O(n log n) time, O(n) space.
func frozenLongestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
    var tails: [Int] = []
    var predecessor = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { predecessor[index] = tails[low - 1] }
        if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var kept = [Bool](repeating: false, count: values.count)
    var index = tails.last ?? -1
    while index >= 0 {
        kept[index] = true
        index = predecessor[index]
    }
    return kept
}

// The snapshot diff behind `PUT /api/tables/{t}`: UIKit's diffable data source
// `apply(snapshot)`. Given the table as it is and the table as it should be, it
// answers the batches that, applied in order with `Table.apply(_:)`, turn the one
// into the other: same properties, sections, rows, content and order (`version`
// aside).
//
// ## Identity
// - A section is its `id`; a section without one is its own content — header,
//   footer and index title, not its rows (`FrozenSectionIdentity`).
// - A row is its `id`; a row without one is its whole content. Repeated equal
//   keys pair up in order: the first old occurrence with the first new one.
//   Rows are paired first within each matched section, then across the table,
//   so that equal rows without ids stay in their section when they can.
// - A matched row whose content differs is reloaded; a matched section whose
//   header, footer or index title differ is reloaded. An unmatched old item is
//   deleted, an unmatched new one inserted. A matched row in another section, or
//   out of order in its own, is moved — across sections too, never deleted and
//   inserted again.
//
// ## The rules every batch obeys (UIKit's; docs/API.md, "A batch")
// - Deletes, reloads and move sources name positions before the batch; inserts
//   and move targets positions after it; the items not moved keep their order.
// - Row operations only in sections that exist on both sides of the batch: none
//   in a section the batch deletes, inserts or reloads; no move out of a deleted
//   section, none into an inserted one.
// - A row is not reloaded and moved in one batch, nor a section.
// - Ids are unique after every batch.
//
// ## Stages
// Those rules force some changes apart, as DifferenceKit's staged changesets do.
// Three batches at most, each present only when it has work:
//
// 1. Opening batch — only when rows move into a section that is new: that
//    section must exist before a row can move in, so it is inserted here holding
//    just its brand-new rows (`insertedEarly`).
// 2. Main batch — everything else that can happen at once: section deletes,
//    inserts and moves; row deletes, inserts and moves (within and across
//    sections, in and out of the sections the other two batches bracket); reloads
//    of rows that do not move.
// 3. Closing batch — only when rows move out of a section that is deleted: the
//    section stays through the main batch, which moves them out, and is deleted
//    here (`deletedLate`).
//
// Reloads that cannot share the main batch — a moved row whose content changed,
// a changed section that moves or trades rows with another section — go to a
// reload stage: the opening batch when there is one (addressed before any move,
// a section reloaded with its old rows carrying their new content), else the
// closing batch (addressed after the moves, a section reloaded with its final
// rows), which then exists for them alone. When no such reload is needed, a
// changed section is folded into the main batch instead: reloaded there with its
// final rows, its row edits then implied by the reload rather than listed.
// Table properties ride on the first batch.
//
// So the count is 1 + [rows move into new sections] + [rows leave deleted
// sections] + [a reload stage is needed and neither of those exists] ≤ 3, and each
// extra batch is forced by a rule above once matched rows are always moved:
// no batch could be dropped. Identical tables give no batch at all.
//
// ## Positions
// T0 is the old table, T1 the table after the opening batch (the old sections
// with the early sections inserted), T2 after the main batch (the new sections
// with the late-deleted ones still in place), T3 the new table. The opening batch
// leaves every old section's rows in their old order and the main batch leaves
// every new section with its final rows, so a row's T1 position is its old row
// index in its old section's T1 index and its T2 position its new row index in
// its new section's T2 index: only section indexes need computing (`t1OfOld`,
// `t1OfNew`, `t2OfOld`, `t2OfNew`).
//
// Which items move is chosen to keep moves few: in the main batch the surviving
// sections that keep their relative order form a longest increasing subsequence
// of their final indexes and stay; the others move. Within a section, likewise,
// the rows that stay in it keep a longest increasing subsequence in place and the
// rest move. Sections inserted early are placed in T1 after the section that
// precedes them in the new table, so they rarely need to move.
//
// ## Complexity
// n rows and s sections on both sides: O(n + s) passes and hashings. FrozenMatching is
// Heckel's symbol table (one pass over the old items, one over the new): first
// one small table per matched section, then one table-wide for the rows still
// unmatched, so each row is hashed at most twice per kind of key. Choosing what
// stays adds O(k log k) for the longest increasing subsequence of the k rows that
// stay in each section, and of the surviving sections: O(n log n) in the worst
// case, near-linear in practice. Memory O(n + s). (100,000 rows in 100 sections
// with 10,000 deletes, inserts, moves and content changes each: about 40 ms,
// where Swift's `difference(from:).inferringMoves()` on the flattened ids takes
// seconds.) This file decides; `FrozenSnapshotDiff+Batches.swift` writes the batches.
//
// Precondition: ids are unique within each table, as validation guarantees.

/// The diff of two snapshots of a table, as UIKit-valid batches.
enum FrozenSnapshotDiff {
    /// The fewest batches that, applied in order with `Table.apply(_:)`, turn `old`
    /// into `new`: the same properties, sections and rows in the same order with the
    /// same content (the table's `id` and `version` aside). Empty when the tables
    /// are equal; otherwise one, two or three batches, each valid under UIKit's
    /// rules, table properties on the first. See `FrozenSnapshotDiff.swift` for the
    /// stages and rules. Sections and rows are matched by `id`, those without one
    /// by their content; `new` must have unique ids, as a validated table does.
    static func batches(from old: Table, to new: Table) -> [Batch] {
        FrozenDiffer(old: old, new: new).batches()
    }
}

/// One diff in progress; each stage of `init` fills the arrays the next one reads.
struct FrozenDiffer {
    /// A section of T1: an old section, or a new one inserted by the opening batch.
    enum SectionRef {
        case old(Int)
        case new(Int)
    }

    /// Where the reloads that cannot share the main batch go.
    enum ReloadStage {
        case none, opening, closing
    }

    /// In which batch a changed row gets its new content.
    enum RowUpdate {
        /// None of its own: unchanged, or carried by a reload of its section.
        case none
        /// `reloadRows` in the main batch.
        case main
        /// `reloadRows` in the reload stage.
        case stage
    }

    let oldTable: Table
    let newTable: Table
    let old: FrozenFlatSnapshot
    let new: FrozenFlatSnapshot
    let sections: FrozenMatching
    let rows: FrozenMatching

    /// By new section: inserted by the opening batch, since rows move into it.
    var insertedEarly: [Bool] = []
    /// By old section: deleted by the closing batch, since rows move out of it.
    var deletedLate: [Bool] = []
    /// The sections of T1, and each one's index there (-1: not in T1).
    var t1: [SectionRef] = []
    var t1OfOld: [Int] = []
    var t1OfNew: [Int] = []
    /// Each section's index in T2 (-1: not in T2).
    var t2OfNew: [Int] = []
    var t2OfOld: [Int] = []
    /// By new section: an existing section the main batch moves.
    var sectionMoved: [Bool] = []
    /// By new section: a kept section that a row moves into or out of.
    var crossTraffic: [Bool] = []
    /// By new row: moved by the main batch.
    var rowMoved: [Bool] = []
    /// By new section: kept, with a different header, footer or index title.
    var sectionChanged: [Bool] = []
    /// By new row: matched, with different content.
    var rowChanged: [Bool] = []
    var stage = ReloadStage.none
    /// By new section: reloaded with its final rows by the main batch.
    var foldedInMain: [Bool] = []
    /// By new section: reloaded by the reload stage.
    var reloadedInStage: [Bool] = []

    init(old oldTable: Table, new newTable: Table) {
        self.oldTable = oldTable
        self.newTable = newTable
        old = FrozenFlatSnapshot(oldTable.sections)
        new = FrozenFlatSnapshot(newTable.sections)
        sections = Self.matchSections(old, new)
        rows = Self.matchRows(old, new, sections: sections)
        classifySections()
        layOutOpening()
        layOutMainSections()
        planRowMoves()
        planReloads()
    }

    // MARK: Stage 1 — identity (Heckel's symbol tables)

    static func matchSections(_ old: FrozenFlatSnapshot, _ new: FrozenFlatSnapshot) -> FrozenMatching {
        var matching = FrozenMatching(oldCount: old.sections.count, newCount: new.sections.count)
        let oldSections = old.sections
        let newSections = new.sections
        matching.pair(
            old: oldSections.indices,
            new: newSections.indices,
            oldKey: { FrozenSectionIdentity(oldSections[$0]) },
            newKey: { FrozenSectionIdentity(newSections[$0]) }
        )
        return matching
    }

    /// Rows are paired within each matched section first — a few small hash tables
    /// that stay in cache, and equal rows without ids keep to their own section —
    /// then across the table for the rows still unmatched: those that changed section.
    static func matchRows(_ old: FrozenFlatSnapshot, _ new: FrozenFlatSnapshot, sections: FrozenMatching)
        -> FrozenMatching
    {
        var matching = FrozenMatching(oldCount: old.rows.count, newCount: new.rows.count)
        let oldRows = old.rows
        let newRows = new.rows
        let byContent = old.hasRowsWithoutID && new.hasRowsWithoutID
        func pair(old oldRange: Range<Int>, new newRange: Range<Int>) {
            matching.pair(old: oldRange, new: newRange, oldKey: { oldRows[$0].id }, newKey: { newRows[$0].id })
            guard byContent else { return }
            matching.pair(
                old: oldRange,
                new: newRange,
                oldKey: { oldRows[$0].id == nil ? oldRows[$0] : nil },
                newKey: { newRows[$0].id == nil ? newRows[$0] : nil }
            )
        }
        for newSection in new.sections.indices {
            let oldSection = sections.newToOld[newSection]
            if oldSection >= 0 { pair(old: old.rows(of: oldSection), new: new.rows(of: newSection)) }
        }
        pair(old: oldRows.indices, new: newRows.indices)
        return matching
    }

    // MARK: Stage 2 — sections the main batch cannot insert or delete

    mutating func classifySections() {
        insertedEarly = [Bool](repeating: false, count: new.sections.count)
        deletedLate = [Bool](repeating: false, count: old.sections.count)
        for newRow in new.rows.indices {
            let oldRow = rows.newToOld[newRow]
            guard oldRow >= 0 else { continue }
            let newSection = new.sectionOf[newRow]
            let oldSection = old.sectionOf[oldRow]
            if sections.newToOld[newSection] < 0 { insertedEarly[newSection] = true }
            if sections.oldToNew[oldSection] < 0 { deletedLate[oldSection] = true }
        }
    }

    // MARK: Stage 3 — T1: the old sections, early sections after their predecessor

    mutating func layOutOpening() {
        // attached[k]: early sections placed after old section k - 1 (k == 0: first).
        var attached = [[Int]](repeating: [], count: old.sections.count + 1)
        var slot = 0
        for newSection in new.sections.indices {
            let oldSection = sections.newToOld[newSection]
            if oldSection >= 0 {
                slot = oldSection + 1
            } else if insertedEarly[newSection] {
                attached[slot].append(newSection)
            }
        }
        t1OfOld = [Int](repeating: -1, count: old.sections.count)
        t1OfNew = [Int](repeating: -1, count: new.sections.count)
        for slot in attached.indices {
            if slot > 0 {
                t1OfOld[slot - 1] = t1.count
                t1.append(.old(slot - 1))
            }
            for newSection in attached[slot] {
                t1OfNew[newSection] = t1.count
                t1.append(.new(newSection))
            }
        }
    }

    // MARK: Stage 4 — T2: section moves of the main batch

    /// The new index of the T1 section `ref`, or nil when it has none (deleted).
    func finalIndex(_ ref: SectionRef) -> Int? {
        switch ref {
        case .old(let oldSection):
            let newSection = sections.oldToNew[oldSection]
            return newSection >= 0 ? newSection : nil
        case .new(let newSection):
            return newSection
        }
    }

    mutating func layOutMainSections() {
        // The T1 sections that end up in the new table, in T1 order, by final index:
        // a longest increasing run stays, the rest moves.
        let ranks = t1.compactMap(finalIndex)
        let stays = frozenLongestIncreasingSubsequence(ranks)
        // Placed by the main batch at their T2 index: moved and inserted sections.
        var placed = [Bool](repeating: false, count: new.sections.count)
        for (position, rank) in ranks.enumerated() where !stays[position] { placed[rank] = true }
        for newSection in new.sections.indices
        where sections.newToOld[newSection] < 0 && !insertedEarly[newSection] {
            placed[newSection] = true
        }
        sectionMoved = placed.indices.map { placed[$0] && t1OfSection($0) >= 0 }

        // T2: the staying sections (and late-deleted ones) in T1 order, each placed
        // section merged in before the first staying section with a greater final index.
        t2OfNew = [Int](repeating: -1, count: new.sections.count)
        t2OfOld = [Int](repeating: -1, count: old.sections.count)
        var count = 0
        var nextPlaced = 0
        func placeSections(below rank: Int) {
            while nextPlaced < rank {
                if placed[nextPlaced] {
                    t2OfNew[nextPlaced] = count
                    count += 1
                }
                nextPlaced += 1
            }
        }
        for ref in t1 {
            if let rank = finalIndex(ref) {
                guard !placed[rank] else { continue }
                placeSections(below: rank)
                t2OfNew[rank] = count
                count += 1
            } else if case .old(let oldSection) = ref, deletedLate[oldSection] {
                t2OfOld[oldSection] = count
                count += 1
            }
        }
        placeSections(below: new.sections.count)
    }

    /// The T1 index of new section `newSection`, or -1 when the main batch inserts it.
    func t1OfSection(_ newSection: Int) -> Int {
        let oldSection = sections.newToOld[newSection]
        return oldSection >= 0 ? t1OfOld[oldSection] : t1OfNew[newSection]
    }

    // MARK: Stage 5 — row moves of the main batch

    mutating func planRowMoves() {
        rowMoved = [Bool](repeating: false, count: new.rows.count)
        crossTraffic = [Bool](repeating: false, count: new.sections.count)
        for newSection in new.sections.indices where t1OfSection(newSection) >= 0 {
            let oldSection = sections.newToOld[newSection]
            // Rows arriving from another section (every matched row of an early section).
            for newRow in new.rows(of: newSection) {
                let oldRow = rows.newToOld[newRow]
                if oldRow >= 0, old.sectionOf[oldRow] != oldSection {
                    rowMoved[newRow] = true
                    crossTraffic[newSection] = true
                }
            }
            guard oldSection >= 0 else { continue }
            // Rows staying in the section, in old order: a longest run in new order stays put.
            var staying: [Int] = []
            for oldRow in old.rows(of: oldSection) {
                let newRow = rows.oldToNew[oldRow]
                guard newRow >= 0 else { continue }
                if new.sectionOf[newRow] == newSection {
                    staying.append(newRow)
                } else {
                    crossTraffic[newSection] = true
                }
            }
            let inPlace = frozenLongestIncreasingSubsequence(staying)
            for (position, newRow) in staying.enumerated() where !inPlace[position] {
                rowMoved[newRow] = true
            }
        }
    }

    // MARK: Stage 6 — where reloads go

    mutating func planReloads() {
        sectionChanged = new.sections.indices.map { newSection in
            let oldSection = sections.newToOld[newSection]
            guard oldSection >= 0 else { return false }
            let before = old.sections[oldSection]
            let after = new.sections[newSection]
            return before.header != after.header || before.footer != after.footer
                || before.indexTitle != after.indexTitle
        }
        rowChanged = new.rows.indices.map { newRow in
            let oldRow = rows.newToOld[newRow]
            return oldRow >= 0 && old.rows[oldRow] != new.rows[newRow]
        }
        // A changed section can be reloaded by the main batch, final rows and all,
        // when it neither moves nor trades rows with another section there.
        let foldable = new.sections.indices.map {
            sectionChanged[$0] && !sectionMoved[$0] && !crossTraffic[$0]
        }
        let needsStage =
            new.sections.indices.contains { sectionChanged[$0] && !foldable[$0] }
            || new.rows.indices.contains { rowChanged[$0] && rowMoved[$0] && !foldable[new.sectionOf[$0]] }
        let none = [Bool](repeating: false, count: new.sections.count)
        if needsStage {
            stage = insertedEarly.contains(true) ? .opening : .closing
            reloadedInStage = sectionChanged
            foldedInMain = none
        } else {
            foldedInMain = sectionChanged
            reloadedInStage = none
        }
    }

    /// Where new row `newRow` gets its new content, if it needs any.
    func update(of newRow: Int) -> RowUpdate {
        guard rowChanged[newRow] else { return .none }
        let newSection = new.sectionOf[newRow]
        if foldedInMain[newSection] { return .none }
        switch stage {
        case .opening:
            // The opening batch reloads sections by their old content.
            let partner = sections.oldToNew[old.sectionOf[rows.newToOld[newRow]]]
            if partner >= 0, reloadedInStage[partner] { return .none }
        case .closing:
            if reloadedInStage[newSection] { return .none }
        case .none:
            break
        }
        return rowMoved[newRow] ? .stage : .main
    }
}

/// Writing out the batches the stages of `FrozenSnapshotDiff.swift` decided: positions
/// follow the T0–T3 scheme described there.
extension FrozenDiffer {
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
                new.rows(of: newSection).lazy.filter { rows.newToOld[$0] < 0 }.map { new.rows[$0] }
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
                    return newRow >= 0 && rowChanged[newRow] ? new.rows[newRow] : old.rows[oldRow]
                }
            )
            batch.reloadSections.append(Batch.SectionItem(at: oldSection, section: section))
        }
        for newRow in new.rows.indices where update(of: newRow) == .stage {
            batch.reloadRows.append(Batch.RowItem(at: t0Path(rows.newToOld[newRow]), row: new.rows[newRow]))
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
                        batch.insertRows.append(Batch.RowItem(at: t2Path(newRow), row: new.rows[newRow]))
                    }
                } else if rowMoved[newRow] {
                    batch.moveRows.append(Batch.RowMove(from: t1Path(oldRow), to: t2Path(newRow)))
                } else if update(of: newRow) == .main {
                    batch.reloadRows.append(Batch.RowItem(at: t1Path(oldRow), row: new.rows[newRow]))
                }
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
        for newRow in new.rows.indices where update(of: newRow) == .stage {
            batch.reloadRows.append(Batch.RowItem(at: t2Path(newRow), row: new.rows[newRow]))
        }
        return batch
    }
}
