/// Mutations of a `RowList`'s B-tree. Each is called only on a node that its list
/// owns alone; before descending into a child it makes that child unique too, so only
/// the shared nodes on the path are copied.
extension RowListNode {
    /// Child `index`, copied first if another tree shares it.
    private func uniqueChild(_ index: Int) -> RowListNode {
        if !isKnownUniquelyReferenced(&children[index]) {
            children[index] = children[index].copy()
        }
        return children[index]
    }

    /// Replaces the row at `position` (`0..<count`).
    func replaceRow(at position: Int, with row: Row) {
        var node = self
        var position = position
        while !node.isLeaf {
            node = node.uniqueChild(node.childIndex(containing: &position))
        }
        node.rows[position] = row
    }

    /// Inserts `row` at `position` (`0...count`). Returns the new right sibling when
    /// this node overflowed and split in two; the caller links it in.
    func insert(_ row: Row, at position: Int) -> RowListNode? {
        count += 1
        if isLeaf {
            if rows.count == rows.capacity {
                // Array would double its buffer; a leaf never holds more than one
                // row over capacity (then splits), so grow at most to that.
                rows.reserveCapacity(Swift.min(Swift.max(2 * rows.count, 4), Self.leafBufferCapacity))
            }
            rows.insert(row, at: position)
            return rows.count > Self.leafCapacity ? splitOffRightHalf() : nil
        }
        var position = position
        var index = 0
        while index < childCounts.count - 1 && position > childCounts[index] {
            position -= childCounts[index]
            index += 1
        }
        let child = uniqueChild(index)
        let split = child.insert(row, at: position)
        childCounts[index] = child.count
        guard let split else { return nil }
        children.insert(split, at: index + 1)
        childCounts.insert(split.count, at: index + 1)
        return children.count > Self.branchCapacity ? splitOffRightHalf() : nil
    }

    /// Removes and returns the row at `position` (`0..<count`). This node may be left
    /// underfull; its parent rebalances it.
    func remove(at position: Int) -> Row {
        count -= 1
        if isLeaf {
            return rows.remove(at: position)
        }
        var position = position
        let index = childIndex(containing: &position)
        let row: Row
        let childIsUnderfull: Bool
        do {
            // Scoped so that `rebalanceChild` finds the child referenced once, not
            // shared with this local, and does not copy it again.
            let child = uniqueChild(index)
            row = child.remove(at: position)
            childCounts[index] = child.count
            childIsUnderfull = child.isUnderfull
        }
        if childIsUnderfull {
            rebalanceChild(at: index)
        }
        return row
    }

    /// Moves the upper half of an overfull node into a new node and returns it.
    private func splitOffRightHalf() -> RowListNode {
        let half = width / 2
        if isLeaf {
            let right = RowListNode(leafRows: rows[half...])
            rows.removeSubrange(half...)
            count -= right.count
            return right
        }
        let right = RowListNode(children: children[half...])
        children.removeSubrange(half...)
        childCounts.removeSubrange(half...)
        count -= right.count
        return right
    }

    /// Brings underfull child `index` back to the minimum fill: merges it with a
    /// neighbour when both fit in one node, otherwise evens out the two.
    private func rebalanceChild(at index: Int) {
        let leftIndex = index > 0 ? index - 1 : index
        let left = uniqueChild(leftIndex)
        let right = uniqueChild(leftIndex + 1)
        let capacity = left.isLeaf ? Self.leafCapacity : Self.branchCapacity
        let total = left.width + right.width
        if total <= capacity {
            left.moveHead(right.width, from: right)
            children.remove(at: leftIndex + 1)
            childCounts.remove(at: leftIndex + 1)
        } else if left.width > total / 2 {
            right.moveTail(left.width - total / 2, from: left)
            childCounts[leftIndex + 1] = right.count
        } else {
            left.moveHead(total / 2 - left.width, from: right)
            childCounts[leftIndex + 1] = right.count
        }
        childCounts[leftIndex] = left.count
    }

    /// Moves the first `amount` entries of `right`, this node's right neighbour, to
    /// the end of this node.
    private func moveHead(_ amount: Int, from right: RowListNode) {
        let moved: Int
        if isLeaf {
            rows.append(contentsOf: right.rows[..<amount])
            right.rows.removeSubrange(..<amount)
            moved = amount
        } else {
            moved = right.childCounts[..<amount].reduce(0, +)
            children.append(contentsOf: right.children[..<amount])
            childCounts.append(contentsOf: right.childCounts[..<amount])
            right.children.removeSubrange(..<amount)
            right.childCounts.removeSubrange(..<amount)
        }
        count += moved
        right.count -= moved
    }

    /// Moves the last `amount` entries of `left`, this node's left neighbour, to the
    /// front of this node.
    private func moveTail(_ amount: Int, from left: RowListNode) {
        let start = left.width - amount
        let moved: Int
        if isLeaf {
            rows.insert(contentsOf: left.rows[start...], at: 0)
            left.rows.removeSubrange(start...)
            moved = amount
        } else {
            moved = left.childCounts[start...].reduce(0, +)
            children.insert(contentsOf: left.children[start...], at: 0)
            childCounts.insert(contentsOf: left.childCounts[start...], at: 0)
            left.children.removeSubrange(start...)
            left.childCounts.removeSubrange(start...)
        }
        count += moved
        left.count -= moved
    }
}
