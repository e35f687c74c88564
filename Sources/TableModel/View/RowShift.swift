/// Where a batch of row edits moves the rows it leaves in one table section:
/// the rows leaving (deleted, moved out) close up, the rows arriving (inserted,
/// moved in) take their targets, and the remaining rows keep their order in the
/// other places (docs/API.md, "A batch"). A monotone map from a remaining row's
/// index before the batch to its index after, in O(log k) for k edits.
///
/// For a row that leaves, it answers the place the next remaining row takes:
/// still monotone (never below a remaining row before it, never above one after),
/// so a view ordered by the old places stays ordered through it.
struct RowShift: Sendable {
    /// Indexes before the batch of the rows leaving, ascending.
    private var removed: [Int]
    /// For the i-th smallest index after the batch of a row arriving, a_i: a_i - i
    /// (ascending): the j-th remaining row goes to j plus the count of these at or below j.
    private var steps: [Int]

    init(removed: [Int], added: [Int]) {
        self.removed = removed.sorted()
        steps = added.sorted().enumerated().map { $0.element - $0.offset }
    }

    /// The index after the batch of the row at `row` before it.
    func callAsFunction(_ row: Int) -> Int {
        let remaining = row - Self.count(in: removed, below: row)
        return remaining + Self.count(in: steps, below: remaining + 1)
    }

    /// The index before the batch of the row that remains and lands at or
    /// after `place`, the first such (or past the last remaining row).
    func source(of place: Int) -> Int {
        // The remaining rows before `place`, then the index of the next one among all.
        let remaining = place - Self.count(in: steps.enumerated().map { $0.element + $0.offset }, below: place)
        var row = remaining
        for leaving in removed where leaving <= row { row += 1 }
        return row
    }

    /// How many of `sorted` are below `bound`.
    private static func count(in sorted: [Int], below bound: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The `RowShift` of each table section a batch inserts rows into or removes
/// rows from, as a map of view labels (`ViewLabel`): a label of another
/// section stays.
///
/// For moving many labels at once, the map of the remaining rows' labels is
/// also kept in steps (`map`): from each label on (to the next step), a
/// remaining row's label moves by the same amount — two steps a row edit at
/// most, and one where a shifted section ends.
struct LabelShift: Sendable {
    /// The sections shifted, ascending, and their shifts.
    private var sections: [Int] = []
    private var shifts: [RowShift] = []
    /// The map of the labels of the rows the batch leaves in place.
    private(set) var map = LabelMap.identity

    /// The shifts of `batch`'s row deletes, inserts and moves (it edits no section).
    init(_ batch: Batch) {
        var removed: [Int: [Int]] = [:]
        var added: [Int: [Int]] = [:]
        for path in batch.deleteRows { removed[path.section, default: []].append(path.row) }
        for item in batch.insertRows { added[item.at.section, default: []].append(item.at.row) }
        for move in batch.moveRows {
            removed[move.from.section, default: []].append(move.from.row)
            added[move.to.section, default: []].append(move.to.row)
        }
        sections = Set(removed.keys).union(added.keys).sorted()
        var steps: [(from: UInt64, by: Int64)] = []
        for section in sections {
            let shift = RowShift(removed: removed[section] ?? [], added: added[section] ?? [])
            shifts.append(shift)
            // A remaining row's shift changes only past a row that leaves, or
            // where the row it becomes takes the place after one arriving.
            var starts = Set([0])
            for row in removed[section] ?? [] { starts.insert(row + 1) }
            for place in added[section] ?? [] { starts.insert(shift.source(of: place + 1)) }
            for start in starts.sorted() {
                let by = Int64(shift(start) - start)
                if by != (steps.last?.by ?? 0) { steps.append((ViewLabel.of(row: start, section: section), by)) }
            }
            if steps.last?.by != 0 { steps.append((ViewLabel.of(row: 0, section: section + 1), 0)) }
        }
        map = LabelMap(steps: steps)
    }

    var isEmpty: Bool { sections.isEmpty }

    /// Whether labels of table section `section` move.
    func shifts(_ section: Int) -> Bool { shift(of: section) != nil }

    /// The shift of table section `section`, nil when its rows stay.
    private func shift(of section: Int) -> RowShift? {
        var low = 0
        var high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if sections[middle] < section { low = middle + 1 } else { high = middle }
        }
        return low < sections.count && sections[low] == section ? shifts[low] : nil
    }

    /// The label after the batch of the row labelled `label` before it (see
    /// `RowShift` for a row that leaves).
    func callAsFunction(_ label: UInt64) -> UInt64 {
        let section = ViewLabel.section(of: label)
        guard let shift = shift(of: section) else { return label }
        return ViewLabel.of(row: shift(ViewLabel.row(of: label)), section: section)
    }
}
