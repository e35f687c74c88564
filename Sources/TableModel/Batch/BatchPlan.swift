/// A batch checked against a table, with what `BatchAlgorithm.swift` needs to
/// apply it without checking anything again. Built by `BatchValidation.swift`.
struct BatchPlan {
    /// Where each section goes.
    var sections: SectionMap
    /// Rows leaving each section (deletes and move sources), by section index before
    /// the batch, in descending row order.
    var removals: [Int: [RowRemoval]] = [:]
    /// Rows arriving in each section that exists before and after the batch
    /// (inserts and move targets), by its section index *before* the batch, in
    /// ascending row order; `row` is the row index after the batch.
    var insertions: [Int: [RowInsertion]] = [:]
    /// The ids that leave and join the table.
    var ids = IDChanges()
}

/// A row that leaves its section: deleted, or the source of move `move`
/// (an index into the normalised batch's `moveRows`).
struct RowRemoval {
    var row: Int
    var move: Int?
}

/// A row that lands at `row` (an index after the batch) in its section.
struct RowInsertion {
    enum Source {
        /// An inserted row.
        case inserted(Row)
        /// The row that move `index` (in the normalised batch's `moveRows`) takes out of its section.
        case moved(Int)
    }
    var row: Int
    var source: Source
}

/// Ids that leave the table and ids that join it, sections and rows apart.
struct IDChanges {
    var removedSectionIDs: [String] = []
    var addedSectionIDs: [String] = []
    var removedRowIDs: [String] = []
    var addedRowIDs: [String] = []
}

/// How section indexes before a batch relate to those after it.
///
/// Deleted sections have no index after; inserted sections none before; a
/// reloaded section keeps its index. Without section deletes, inserts or moves
/// the map is the identity and costs nothing; otherwise it is built in O(number
/// of sections), which the engine allows (a table has few sections, many rows).
struct SectionMap {
    let countBefore: Int
    let countAfter: Int
    /// For each index after the batch, the index before it, or -1 for an inserted
    /// section; nil for the identity.
    let oldIndexes: [Int]?
    /// For each index before the batch, the index after it, or -1 for a deleted
    /// section; nil for the identity.
    let newIndexes: [Int]?

    /// The map of a batch whose section lists are valid for `countBefore` sections:
    /// inserted and moved sections at their targets, the others in order around them.
    init(countBefore: Int, deleted: Set<Int>, inserted: [Int], moves: [Batch.SectionMove]) {
        self.countBefore = countBefore
        countAfter = countBefore - deleted.count + inserted.count
        guard !(deleted.isEmpty && inserted.isEmpty && moves.isEmpty) else {
            oldIndexes = nil
            newIndexes = nil
            return
        }
        let unset = -2
        var old = [Int](repeating: unset, count: countAfter)
        for target in inserted { old[target] = -1 }
        var movedFrom = Set<Int>()
        for move in moves {
            old[move.to] = move.from
            movedFrom.insert(move.from)
        }
        var slot = 0
        for index in 0..<countBefore where !deleted.contains(index) && !movedFrom.contains(index) {
            while old[slot] != unset { slot += 1 }
            old[slot] = index
        }
        var new = [Int](repeating: -1, count: countBefore)
        for (newIndex, oldIndex) in old.enumerated() where oldIndex >= 0 {
            new[oldIndex] = newIndex
        }
        oldIndexes = old
        newIndexes = new
    }

    /// Whether sections are deleted, inserted or moved (reloads leave the map alone).
    var isIdentity: Bool { oldIndexes == nil }

    /// The index before the batch of section `index` after it; nil for an inserted section.
    func oldIndex(ofNew index: Int) -> Int? {
        guard let oldIndexes else { return index }
        let old = oldIndexes[index]
        return old >= 0 ? old : nil
    }

    /// The index after the batch of section `index` before it; nil for a deleted section.
    func newIndex(ofOld index: Int) -> Int? {
        guard let newIndexes else { return index }
        let new = newIndexes[index]
        return new >= 0 ? new : nil
    }
}
