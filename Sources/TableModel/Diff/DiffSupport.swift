/// Building blocks of `SnapshotDiff` (see `SnapshotDiff.swift`): the flattened
/// form of a table, identity matching through hash tables, and the longest
/// increasing subsequence that decides which items stay put.

/// The rows of a table in one array, with where each section's rows begin.
///
/// A row is named by its flat index `f`; its section is `sectionOf[f]` and its
/// row index inside that section `f - start[sectionOf[f]]`.
struct FlatSnapshot {
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
enum SectionIdentity: Hashable {
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
struct Matching {
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
func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
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
