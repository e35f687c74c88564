// The snapshot diff behind `PUT /api/tables/{t}`: UIKit's diffable data source
// `apply(snapshot)`. Given the table as it is and the table as it should be, it
// answers the batches that, applied in order with `Table.apply(_:)`, turn the one
// into the other: same properties, sections, rows, content and order (`version`
// aside).
//
// ## Identity
// - A section is its `id`; a section without one is its own content — header,
//   footer and index title, not its rows (`SectionIdentity`).
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
// ## The rules every batch obeys (docs/API.md, "A batch"; UIKit's)
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
// rest move; when that would move a row onto its own index (the same index in
// the section before and after), the longest run that keeps every such row in
// place is chosen instead (`longestIncreasingSubsequence(_:keeping:)`,
// O(n log n), only then), even when it moves more rows: such rows keep their
// order among themselves, so one run holds them all. Sections inserted early are placed in T1 after the section that
// precedes them in the new table, so they rarely need to move.
//
// ## Complexity
// n rows and s sections on both sides: O(n + s) passes, expected. The rows are
// read where the tables keep them (`FlatSnapshot`: where each row lies, and each
// id's hash and UTF-8 bytes, in flat arrays of plain values; no row or id is
// copied out, so nothing is retained or destroyed a row), and each row's id is
// hashed once (`RowKey`). Matching is Heckel's symbol table (one pass over the old
// items, one over the new), an open-addressing table on those hashes: first one
// small table per matched section, then one table-wide for the rows still
// unmatched; ids are compared as bytes. Every matched pair is compared once for a
// change of content, right after the pass that paired it (its section's entries
// still in cache) and through a leaf cursor (a leaf is retained once a run of rows
// in it, not twice a pair). The main batch lists row moves in old
// order, the order a published batch has, so they need no sort. Choosing what
// stays adds the longest increasing subsequence of the k rows that stay in each
// section, and of the surviving sections: O(k) when they mostly keep their order,
// O(k log k) at worst. Memory O(n + s), plus the ids' bytes; the per-row maps
// (`sectionOf`, `Matching`) hold 32-bit indexes (`CompactIndexes`), so n < 2³¹.
// `make bench` times six shapes against the previous diff and Swift's
// `difference(from:).inferringMoves()` (docs/PERFORMANCE.md).
// This file decides; `SnapshotDiff+Batches.swift` writes the batches.
//
// Precondition: ids are unique within each table, as validation guarantees.

/// The diff of two snapshots of a table, as UIKit-valid batches.
public enum SnapshotDiff {
    /// The fewest batches that, applied in order with `Table.apply(_:)`, turn `old`
    /// into `new`: the same properties, sections and rows in the same order with the
    /// same content (the table's `id` and `version` aside). Empty when the tables
    /// are equal; otherwise one, two or three batches, each valid under UIKit's
    /// rules, table properties on the first. See `SnapshotDiff.swift` for the
    /// stages and rules. Sections and rows are matched by `id`, those without one
    /// by their content; `new` must have unique ids, as a validated table does.
    public static func batches(from old: Table, to new: Table) -> [Batch] {
        SnapshotDiffer(old: old, new: new).batches()
    }
}

/// One diff in progress; each stage of `init` fills the arrays the next one reads.
struct SnapshotDiffer {
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
    let old: FlatSnapshot
    let new: FlatSnapshot
    let sections: Matching
    let rows: Matching

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
    /// By new row: matched, with different content (`matchRows`).
    var rowChanged: [Bool] = []
    var stage = ReloadStage.none
    /// By new section: reloaded with its final rows by the main batch.
    var foldedInMain: [Bool] = []
    /// By new section: reloaded by the reload stage.
    var reloadedInStage: [Bool] = []

    init(old oldTable: Table, new newTable: Table) {
        self.oldTable = oldTable
        self.newTable = newTable
        old = FlatSnapshot(oldTable.sections)
        new = FlatSnapshot(newTable.sections)
        sections = Self.matchSections(old, new)
        let matched = Self.matchRows(old, new, sections: sections)
        rows = matched.rows
        rowChanged = matched.changed
        classifySections()
        layOutOpening()
        layOutMainSections()
        planRowMoves()
        planReloads()
    }

    // MARK: Stage 1 — identity (Heckel's symbol tables)

    static func matchSections(_ old: FlatSnapshot, _ new: FlatSnapshot) -> Matching {
        var matching = Matching(oldCount: old.sections.count, newCount: new.sections.count)
        let oldKeys = old.sections.map(SectionIdentity.init)
        let newKeys = new.sections.map(SectionIdentity.init)
        matching.pair(
            old: oldKeys.indices,
            new: newKeys.indices,
            oldHash: { oldKeys[$0].hashValue },
            newHash: { newKeys[$0].hashValue },
            sameOld: { oldKeys[$0] == oldKeys[$1] },
            sameKey: { oldKeys[$0] == newKeys[$1] }
        )
        return matching
    }

    /// Rows are paired within each matched section first — a few small hash tables
    /// that stay in cache, and equal rows without ids keep to their own section —
    /// then across the table for the rows still unmatched: those that changed section.
    /// Each row's key is hashed once (`FlatSnapshot.idHashes`, or Swift's `hashValue`
    /// when an id is not ASCII, see `RowKey`) and serves both passes.
    ///
    /// Every pair is compared for a change of content (`changed`, by new row) right
    /// after the pass that made it, while its section's entries are still in cache —
    /// a pass of its own over every matched row afterwards missed the cache on them
    /// again. Pairs are never undone, the section passes cover disjoint new rows, and
    /// the table-wide pass pairs only rows unmatched before it: each pair is compared
    /// once.
    static func matchRows(
        _ old: FlatSnapshot, _ new: FlatSnapshot, sections: Matching
    ) -> (rows: Matching, changed: [Bool]) {
        var matching = Matching(oldCount: old.count, newCount: new.count)
        let ascii = old.idsAreASCII && new.idsAreASCII
        let oldIDHashes = ascii ? old.idHashes : old.indices.map { old.id($0)?.hashValue ?? 0 }
        let newIDHashes = ascii ? new.idHashes : new.indices.map { new.id($0)?.hashValue ?? 0 }
        let byContent = old.hasRowsWithoutID && new.hasRowsWithoutID
        // Usually every row has an id: then no row is asked whether it has one.
        let allKeyed = !old.hasRowsWithoutID && !new.hasRowsWithoutID
        // Rows without an id are their whole content.
        let oldContent = byContent ? old.indices.map { old.hasID($0) ? 0 : old.row($0).hashValue } : []
        let newContent = byContent ? new.indices.map { new.hasID($0) ? 0 : new.row($0).hashValue } : []
        func pair(old oldRange: Range<Int>, new newRange: Range<Int>) {
            matching.pair(
                old: oldRange,
                new: newRange,
                oldHash: { allKeyed || old.hasID($0) ? oldIDHashes[$0] : nil },
                newHash: { allKeyed || new.hasID($0) ? newIDHashes[$0] : nil },
                sameOld: { old.sameID($0, $1, of: old) },
                sameKey: { old.sameID($0, $1, of: new) }
            )
            guard byContent else { return }
            matching.pair(
                old: oldRange,
                new: newRange,
                oldHash: { old.hasID($0) ? nil : oldContent[$0] },
                newHash: { new.hasID($0) ? nil : newContent[$0] },
                sameOld: { old.rowEquals($0, $1, of: old) },
                sameKey: { old.rowEquals($0, $1, of: new) }
            )
        }
        var changed = [Bool](repeating: false, count: new.count)
        // New rows in order, old ones mostly so: each side's leaf is read once a run.
        var cursors = (FlatSnapshot.LeafCursor(), FlatSnapshot.LeafCursor())
        func compare(_ newRows: some Sequence<Int>) {
            for newRow in newRows {
                let oldRow = matching.newToOld[newRow]
                if oldRow >= 0 { changed[newRow] = !old.rowEquals(oldRow, newRow, of: new, cursors: &cursors) }
            }
        }
        for newSection in new.sections.indices {
            let oldSection = sections.newToOld[newSection]
            if oldSection >= 0 {
                pair(old: old.rows(of: oldSection), new: new.rows(of: newSection))
                compare(new.rows(of: newSection))
            }
        }
        let unmatched = new.indices.filter { matching.newToOld[$0] < 0 }
        pair(old: old.indices, new: new.indices)
        compare(unmatched)
        return (matching, changed)
    }

    // MARK: Stage 2 — sections the main batch cannot insert or delete

    mutating func classifySections() {
        insertedEarly = [Bool](repeating: false, count: new.sections.count)
        deletedLate = [Bool](repeating: false, count: old.sections.count)
        for newRow in new.indices {
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
        let stays = longestIncreasingSubsequence(ranks)
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
        rowMoved = [Bool](repeating: false, count: new.count)
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
            // Whether each is at the same index in the section before and after.
            var sameIndex: [Bool] = []
            for oldRow in old.rows(of: oldSection) {
                let newRow = rows.oldToNew[oldRow]
                guard newRow >= 0 else { continue }
                if new.sectionOf[newRow] == newSection {
                    staying.append(newRow)
                    sameIndex.append(old.rowIndex(oldRow) == new.rowIndex(newRow))
                } else {
                    crossTraffic[newSection] = true
                }
            }
            var inPlace = longestIncreasingSubsequence(staying)
            // The longest run that keeps every such row in place moves none onto its own index path.
            if staying.indices.contains(where: { !inPlace[$0] && sameIndex[$0] }) {
                inPlace = longestIncreasingSubsequence(staying, keeping: sameIndex)
            }
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
                || before.indexTitle != after.indexTitle || before.groupValue != after.groupValue
        }
        // A changed section can be reloaded by the main batch, final rows and all,
        // when it neither moves nor trades rows with another section there.
        let foldable = new.sections.indices.map {
            sectionChanged[$0] && !sectionMoved[$0] && !crossTraffic[$0]
        }
        let needsStage =
            new.sections.indices.contains { sectionChanged[$0] && !foldable[$0] }
            || new.indices.contains { rowChanged[$0] && rowMoved[$0] && !foldable[new.sectionOf[$0]] }
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
