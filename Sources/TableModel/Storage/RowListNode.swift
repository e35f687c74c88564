import Synchronization

/// A node of a `RowList`'s counted B-tree: a leaf of rows or an internal node of
/// children. The invariants are listed on `RowList`.
///
/// `@unchecked Sendable`: a node is mutated only while exactly one `RowList` holds
/// it (checked with `isKnownUniquelyReferenced` on every node of a mutation's path);
/// a shared node is never mutated, only copied. This is the discipline of `Array`'s
/// own buffer. The exceptions are `searchTextSlot` and `fieldKeysSlot`, atomics a
/// search or a view's filter fills in on a shared leaf.
final class RowListNode: @unchecked Sendable {
    /// Most rows in a leaf.
    static let leafCapacity = 32
    /// Fewest rows in a leaf that is not the root.
    static let leafMinimum = leafCapacity / 2
    /// Most children of an internal node.
    static let branchCapacity = 64
    /// Fewest children of an internal node that is not the root.
    static let branchMinimum = branchCapacity / 2

    /// The number of rows below this node.
    var count: Int
    /// A leaf's rows, in order; empty in an internal node.
    var rows: [Row] {
        didSet { dropCaches() }
    }
    /// An internal node's children, in order; empty in a leaf.
    var children: [RowListNode]
    /// `childCounts[i] == children[i].count`, kept here so a search scans one array.
    var childCounts: [Int]
    /// A leaf's `SearchText` once a search has built it (retained), dropped
    /// whenever `rows` change.
    let searchTextSlot = Atomic<Unmanaged<SearchText>?>(nil)
    /// A leaf's `FieldKeys` once a view's filter has built them (retained, the
    /// first of a chain), dropped whenever `rows` change.
    let fieldKeysSlot = Atomic<Unmanaged<FieldKeys>?>(nil)

    deinit { dropCaches() }

    /// Drops what the leaf keeps of its rows for views: its `SearchText` and `FieldKeys`.
    private func dropCaches() {
        if searchTextSlot.load(ordering: .acquiring) != nil {
            searchTextSlot.exchange(nil, ordering: .acquiringAndReleasing)?.release()
        }
        if fieldKeysSlot.load(ordering: .acquiring) != nil {
            fieldKeysSlot.exchange(nil, ordering: .acquiringAndReleasing)?.release()
        }
    }

    /// A leaf of `rows` and no spare room: the root of a small list, which stays small
    /// (a section of three rows holds three) and grows as `Array` does until it splits.
    init<C: Collection<Row>>(rows: C) {
        self.rows = Array(rows)
        self.count = self.rows.count
        self.children = []
        self.childCounts = []
    }

    /// The most rows a leaf's buffer ever holds: one over capacity, just before it splits.
    static let leafBufferCapacity = leafCapacity + 1

    /// A leaf of `rows` in a buffer of `leafBufferCapacity` rows: a leaf of a tree
    /// (more than one leaf).
    ///
    /// Every such buffer has the same size, whatever the leaf holds, so it never
    /// reallocates as the leaf grows and splits, and a buffer freed by a merge is
    /// exactly what the next split asks for. Leaves in buffers of their own size
    /// (24 rows built, 33 once grown, 16 after a split, …) left the allocator holes
    /// no later buffer fitted: a 1,000,000-row section grew from 215 to 453 MiB RSS
    /// over a million random moves, against a heap in use about a third larger than
    /// after loading (`ModelBench memory`, docs/perf-history/fixed-in-the-product.md).
    init<C: Collection<Row>>(leafRows rows: C) {
        var buffer: [Row] = []
        buffer.reserveCapacity(Self.leafBufferCapacity)
        buffer.append(contentsOf: rows)
        self.rows = buffer
        self.count = buffer.count
        self.children = []
        self.childCounts = []
    }

    /// A leaf of a tree holding `buffer`, a buffer of `leafBufferCapacity` rows, as it is.
    private init(leafBuffer buffer: consuming [Row]) {
        self.rows = buffer
        self.count = self.rows.count
        self.children = []
        self.childCounts = []
    }

    /// An internal node of `children`.
    init<C: Collection<RowListNode>>(children: C) {
        self.rows = []
        self.children = Array(children)
        self.childCounts = self.children.map(\.count)
        self.count = childCounts.reduce(0, +)
    }

    /// A copy about to be edited (copy-on-write): a leaf of a tree gets a buffer of its
    /// own of the one size now, rather than `Array` copying it at a size of its choice
    /// on the first edit.
    private init(copying node: RowListNode) {
        count = node.count
        if node.rows.capacity >= Self.leafBufferCapacity {
            var buffer: [Row] = []
            buffer.reserveCapacity(Self.leafBufferCapacity)
            buffer.append(contentsOf: node.rows)
            rows = buffer
        } else {
            rows = node.rows
        }
        children = node.children
        childCounts = node.childCounts
    }

    /// Leaves have no children; an internal node always has at least two.
    var isLeaf: Bool { children.isEmpty }

    /// The number of entries: rows in a leaf, children in an internal node.
    var width: Int { isLeaf ? rows.count : children.count }

    /// Below the minimum fill of a node that is not the root.
    var isUnderfull: Bool {
        isLeaf ? rows.count < Self.leafMinimum : children.count < Self.branchMinimum
    }

    /// A copy of this node alone; its children stay shared.
    func copy() -> RowListNode { RowListNode(copying: self) }

    // MARK: Building

    /// A tree of `rows` in O(n): leaves first, then each level above them.
    ///
    /// Nodes are built three quarters full, as databases bulk-load their B-trees:
    /// a table loaded and then edited takes its first inserts into free room
    /// rather than splitting a full leaf and, in turn, its full parents — the
    /// splits a fully packed tree pays on nearly every early insert.
    static func build(_ rows: [Row]) -> RowListNode {
        let leaves = fillRanges(of: rows.count, capacity: leafCapacity, minimum: leafMinimum)
        return assemble(leaves.map { leaves.count > 1 ? RowListNode(leafRows: rows[$0]) : RowListNode(rows: rows[$0]) })
    }

    /// A tree of `rows`, as `build(_:)` makes it, the rows moved out of
    /// `rows` (left empty) rather than copied: not a reference of theirs is
    /// counted. A view's rows were each copied out of its table just before;
    /// counting their references up again, and down as the copy went, waited
    /// each time for a row's storage far in memory (a fifth of opening a view
    /// of 220,000 rows: docs/perf-history/live-views-and-search.md).
    static func build(moving rows: inout [Row]) -> RowListNode {
        let ranges = fillRanges(of: rows.count, capacity: leafCapacity, minimum: leafMinimum)
        guard ranges.count > 1 else {
            // One leaf, the root: the array's buffer itself, shared and then let go.
            defer { rows = [] }
            return RowListNode(rows: rows)
        }
        var leaves: [RowListNode] = []
        leaves.reserveCapacity(ranges.count)
        // From the last leaf to the first, each row taken off the end of `rows`.
        for range in ranges.reversed() {
            var leaf: [Row] = []
            leaf.reserveCapacity(leafBufferCapacity)
            for _ in range { leaf.append(rows.removeLast()) }
            leaf.reverse()
            leaves.append(RowListNode(leafBuffer: leaf))
        }
        leaves.reverse()
        return assemble(leaves)
    }

    /// The tree above `leaves` (in order, sized by `fillRanges`), built level by level.
    static func assemble(_ leaves: [RowListNode]) -> RowListNode {
        var level = leaves
        while level.count > 1 {
            let below = level
            level = fillRanges(of: below.count, capacity: branchCapacity, minimum: branchMinimum).map {
                RowListNode(children: below[$0])
            }
        }
        return level.first ?? RowListNode(rows: [Row]())
    }

    /// `0..<total` cut into ranges of about three quarters of `capacity`, their
    /// sizes differing by at most one, none over `capacity` and — when there are
    /// two or more — none under `minimum` (at most half of `capacity`). What fits
    /// in one node stays in one: a small section is a single leaf.
    static func fillRanges(of total: Int, capacity: Int, minimum: Int) -> [Range<Int>] {
        guard total > capacity else { return total > 0 ? [0..<total] : [] }  // one node, the root
        let fill = capacity * 3 / 4
        // Enough pieces to keep each within capacity; the fill's count when that
        // keeps each at the minimum or more.
        let pieces = max((total + capacity - 1) / capacity, min((total + fill - 1) / fill, total / minimum))
        let base = total / pieces
        let larger = total % pieces
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(pieces)
        var start = 0
        for piece in 0..<pieces {
            let end = start + base + (piece < larger ? 1 : 0)
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    // MARK: Reading

    /// The child holding `position` (`0..<count`), with `position` made relative to it.
    func childIndex(containing position: inout Int) -> Int {
        var index = 0
        while position >= childCounts[index] {
            position -= childCounts[index]
            index += 1
        }
        return index
    }

    /// The row at `position` (`0..<count`).
    func row(at position: Int) -> Row {
        var node = self
        var position = position
        while !node.isLeaf {
            node = node.children[node.childIndex(containing: &position)]
        }
        return node.rows[position]
    }

    /// Appends the rows of this subtree in `range` (relative to this node, non-empty).
    func appendRows(in range: Range<Int>, to result: inout [Row]) {
        visitLeafNodes(in: range) { leaf, range in result.append(contentsOf: leaf.rows[range]) }
    }

    /// Hands `body` each leaf holding rows in `range` (positions under this
    /// node), in order, with the positions of those rows in the leaf.
    func visitLeafNodes(in range: Range<Int>, _ body: (RowListNode, Range<Int>) -> Void) {
        if isLeaf {
            body(self, range)
            return
        }
        children.withUnsafeBufferPointer { children in
            var start = 0
            for (index, childCount) in childCounts.enumerated() {
                let end = start + childCount
                if end > range.lowerBound {
                    let lower = max(range.lowerBound, start) - start
                    let upper = min(range.upperBound, end) - start
                    children[index].visitLeafNodes(in: lower..<upper, body)
                }
                if end >= range.upperBound { return }
                start = end
            }
        }
    }
}
