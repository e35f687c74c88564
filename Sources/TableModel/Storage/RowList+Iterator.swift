extension RowList {
    /// Walks the rows in order, leaf by leaf: O(1) amortised per row.
    ///
    /// It keeps the path from the root to the current leaf, so moving to the next
    /// leaf climbs only as far as needed instead of searching from the root again.
    /// It holds the tree it was made from; later edits of the list do not affect it.
    public struct Iterator: IteratorProtocol {
        /// The internal nodes above the current leaf, each with the index of the next
        /// child to visit.
        private var path: [(node: RowListNode, nextChild: Int)] = []
        /// The current leaf's rows.
        private var leafRows: [Row] = []
        private var nextRow = 0

        init(root: RowListNode) {
            descend(from: root)
        }

        public mutating func next() -> Row? {
            while nextRow == leafRows.count {
                guard let top = path.last else { return nil }
                if top.nextChild == top.node.children.count {
                    path.removeLast()
                    continue
                }
                path[path.count - 1].nextChild += 1
                descend(from: top.node.children[top.nextChild])
            }
            defer { nextRow += 1 }
            return leafRows[nextRow]
        }

        /// Makes the leftmost leaf under `node` current, pushing the nodes above it.
        private mutating func descend(from node: RowListNode) {
            var node = node
            while !node.isLeaf {
                path.append((node, 1))
                node = node.children[0]
            }
            leafRows = node.rows
            nextRow = 0
        }
    }
}

extension RowList {
    /// Appends each leaf's rows to `leaves`, in order: the buffers the tree holds,
    /// shared, not copied (one retain a leaf). O(n / leafMinimum).
    func appendLeaves(to leaves: inout [[Row]]) {
        root.appendLeaves(to: &leaves)
    }
}

extension RowListNode {
    func appendLeaves(to leaves: inout [[Row]]) {
        if isLeaf {
            if !rows.isEmpty { leaves.append(rows) }
            return
        }
        for child in children { child.appendLeaves(to: &leaves) }
    }
}
