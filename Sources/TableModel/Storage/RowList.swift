/// The rows of one section, in a counted B-tree (an order-statistic tree).
///
/// `RowList` behaves like `[Row]` — a value type with `Int` positions `0..<count` —
/// but a section of a million rows can be edited one row at a time without copying
/// the whole list.
///
/// ## Structure and invariants
/// - Rows live in leaves, in order; a leaf holds at most `leafCapacity` rows.
/// - An internal node holds its children in order and, next to them, how many rows
///   each child holds (`childCounts[i] == children[i].count`); it has at most
///   `branchCapacity` children.
/// - Every node's `count` is the number of rows below it; the root's is `count`.
/// - Every node but the root is at least half full (`leafMinimum` rows,
///   `branchMinimum` children); an internal root has at least two children, and only
///   an empty list has an empty leaf (its root).
/// - All leaves are at the same depth, so the height is O(log n):
///   a million rows are at most five levels deep.
///
/// Finding position `p` walks down from the root, scanning each node's child counts
/// (at most `branchCapacity` integers) for the child holding `p`.
///
/// ## Complexity (n rows, B the node capacity, a constant)
/// - `subscript` get and set, `insert(_:at:)`, `remove(at:)`, `append(_:)`,
///   `move(from:to:)`: O(log n). Inserting splits full nodes on the way back up;
///   removing merges an underfull node with a sibling or borrows from it.
/// - `rows(in:)`: O(log n + range.count).
/// - Iteration: O(n) in total, O(1) amortised per row (a stack of the path, never a
///   search from the root per row).
/// - `init(_:)` from a sequence: O(n); leaves are filled in one pass, then each level.
/// - Copying: O(1).
///
/// ## Copy-on-write
/// Copies share nodes. A mutation walks down from the root and, on each node of its
/// path, checks `isKnownUniquelyReferenced`: a node owned by this list alone is edited
/// in place; a shared one is copied first (only that node, not its subtree). So a
/// reader holding an old copy keeps seeing the old rows while a writer edits, and the
/// writer pays O(B log n) for its first edit after a copy.
///
/// Positions out of range are a programming error (a precondition failure), as with
/// `Array`; callers validate positions first.
public struct RowList: Sendable, Equatable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The root: a leaf for up to `leafCapacity` rows, otherwise an internal node.
    private(set) var root: RowListNode

    /// An empty list.
    public init() { root = RowListNode(rows: [Row]()) }

    /// A list of `rows`, in order, built leaf by leaf in O(n).
    public init<S: Sequence>(_ rows: S) where S.Element == Row {
        root = RowListNode.build(Array(rows))
    }

    /// A list of `rows`, in order, moved out of the array (left empty) rather
    /// than copied: O(n), with no reference of a row counted (`RowListNode.build(moving:)`).
    init(moving rows: inout [Row]) {
        root = RowListNode.build(moving: &rows)
    }

    public init(arrayLiteral rows: Row...) { self.init(rows) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { root.count }
    /// The number of rows: O(1).
    public var count: Int { root.count }

    /// The row at `position`: O(log n).
    public subscript(position: Int) -> Row {
        get {
            precondition(position >= 0 && position < count, "RowList position out of range")
            return root.row(at: position)
        }
        set {
            precondition(position >= 0 && position < count, "RowList position out of range")
            makeRootUnique()
            root.replaceRow(at: position, with: newValue)
        }
    }

    /// Inserts `row` so that it ends up at `position` (`0...count`): O(log n).
    public mutating func insert(_ row: Row, at position: Int) {
        precondition(position >= 0 && position <= count, "RowList insertion position out of range")
        makeRootUnique()
        if let right = root.insert(row, at: position) {
            root = RowListNode(children: [root, right])
        }
    }

    /// Removes and returns the row at `position`: O(log n).
    @discardableResult
    public mutating func remove(at position: Int) -> Row {
        precondition(position >= 0 && position < count, "RowList position out of range")
        makeRootUnique()
        let row = root.remove(at: position)
        if !root.isLeaf && root.children.count == 1 {
            root = root.children[0]
        }
        return row
    }

    /// Adds `row` after the last row: O(log n).
    public mutating func append(_ row: Row) { insert(row, at: count) }

    /// Moves the row at `source` so that it ends up at `destination`, as UIKit's
    /// `moveRow(at:to:)` does: both are positions in `0..<count`. O(log n).
    public mutating func move(from source: Int, to destination: Int) {
        precondition(source >= 0 && source < count, "RowList move source out of range")
        precondition(destination >= 0 && destination < count, "RowList move destination out of range")
        guard source != destination else { return }
        insert(remove(at: source), at: destination)
    }

    /// The rows in `range`, in order: O(log n + range.count).
    public func rows(in range: Range<Int>) -> [Row] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "RowList range out of range")
        var result: [Row] = []
        guard !range.isEmpty else { return result }
        result.reserveCapacity(range.count)
        root.appendRows(in: range, to: &result)
        return result
    }

    /// Calls `body` with each row in `range`, in order, read in place from the
    /// tree's leaves: no row is copied out (`rows(in:)` copies them into an array).
    /// O(log n + range.count).
    public func forEachRow(in range: Range<Int>, _ body: (Row) -> Void) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "RowList range out of range")
        guard !range.isEmpty else { return }
        root.visitLeafNodes(in: range) { leaf, range in
            leaf.rows[range].withUnsafeBufferPointer { rows in
                // By index: the subscript lends each row, where iterating would copy it.
                for index in rows.indices { body(rows[index]) }
            }
        }
    }

    /// Calls `body` with a pointer to each row in `range`, in order, in the
    /// tree's leaves: a property read through it is copied alone, where a row
    /// handed to a closure may be copied whole (as perf showed for a search's,
    /// `RowSelection`). The pointer is valid during the call only.
    /// O(log n + range.count).
    func forEachRowAddress(in range: Range<Int>, _ body: (UnsafePointer<Row>) -> Void) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "RowList range out of range")
        guard !range.isEmpty else { return }
        root.visitLeafNodes(in: range) { leaf, range in
            leaf.rows[range].withUnsafeBufferPointer { rows in
                for index in rows.indices { body(rows.baseAddress! + index) }
            }
        }
    }

    /// An iterator over the rows in order, O(1) amortised per row.
    public func makeIterator() -> Iterator { Iterator(root: root) }

    public static func == (lhs: RowList, rhs: RowList) -> Bool {
        lhs.root === rhs.root || (lhs.count == rhs.count && lhs.elementsEqual(rhs))
    }

    /// Copies the root if another list shares it; the nodes below are checked one by
    /// one on the way down by the mutation itself.
    private mutating func makeRootUnique() {
        if !isKnownUniquelyReferenced(&root) {
            root = root.copy()
        }
    }
}

extension RowList {
    /// Builds a list row by row when the number of rows is known first, as a decoder
    /// knows it from the JSON array: each leaf is filled as its rows arrive, so the
    /// rows never sit in one array as well as in the leaves (at 1,000,000 rows, that
    /// array was a third of the peak while loading). The leaves are those
    /// `init(_:)` builds; a list that ends with another number of rows than expected
    /// is built again from its rows, correct but without that saving.
    struct Builder {
        private let sizes: [Int]
        private var leaves: [RowListNode] = []
        private var current: [Row] = []
        private var extra: [Row] = []
        private var count = 0

        init(expectedCount: Int) {
            let ranges = RowListNode.fillRanges(
                of: expectedCount, capacity: RowListNode.leafCapacity, minimum: RowListNode.leafMinimum)
            sizes = ranges.map(\.count)
            leaves.reserveCapacity(ranges.count)
            startLeaf()
        }

        mutating func append(_ row: Row) {
            count += 1
            guard leaves.count < sizes.count else {
                extra.append(row)
                return
            }
            current.append(row)
            if current.count == sizes[leaves.count] {
                let leaf = sizes.count > 1 ? RowListNode(leafRows: current) : RowListNode(rows: current)
                // Its rows' texts folded now, while they are in cache: a few per cent
                // of a load, against a first search that would fold them all
                // (`SearchText`).
                _ = leaf.searchText
                leaves.append(leaf)
                startLeaf()
            }
        }

        /// The list of every row appended, in order.
        func build() -> RowList {
            guard count == sizes.reduce(0, +) else {
                var rows = leaves.flatMap(\.rows)
                rows += current
                rows += extra
                return RowList(rows)
            }
            return RowList(root: RowListNode.assemble(leaves))
        }

        private mutating func startLeaf() {
            current = []
            if leaves.count < sizes.count { current.reserveCapacity(sizes[leaves.count]) }
        }
    }

    init(root: RowListNode) {
        self.root = root
    }
}
