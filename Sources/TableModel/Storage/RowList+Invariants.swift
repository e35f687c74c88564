extension RowList {
    /// The number of levels of the tree: 1 for a single leaf. Used by tests.
    var height: Int {
        var levels = 1
        var node = root
        while !node.isLeaf {
            node = node.children[0]
            levels += 1
        }
        return levels
    }

    /// Every broken structural invariant of the tree (see `RowList`), described;
    /// empty when the tree is sound. Used by tests.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        var leafDepths: Set<Int> = []
        check(root, path: "root", depth: 0, leafDepths: &leafDepths, problems: &problems)
        if leafDepths.count > 1 {
            problems.append("leaves at depths \(leafDepths.sorted())")
        }
        if !root.isLeaf && root.children.count < 2 {
            problems.append("internal root with \(root.children.count) child")
        }
        return problems
    }

    private func check(
        _ node: RowListNode, path: String, depth: Int,
        leafDepths: inout Set<Int>, problems: inout [String]
    ) {
        let isRoot = node === root
        if node.isLeaf {
            leafDepths.insert(depth)
            if !node.childCounts.isEmpty {
                problems.append("\(path): leaf with child counts")
            }
            if node.count != node.rows.count {
                problems.append("\(path): count \(node.count) but \(node.rows.count) rows")
            }
            if node.rows.count > RowListNode.leafCapacity {
                problems.append("\(path): \(node.rows.count) rows, over capacity")
            }
            if !isRoot && node.rows.count < RowListNode.leafMinimum {
                problems.append("\(path): \(node.rows.count) rows, under minimum")
            }
            return
        }
        if !node.rows.isEmpty {
            problems.append("\(path): internal node with rows")
        }
        if node.childCounts != node.children.map(\.count) {
            problems.append("\(path): child counts \(node.childCounts) differ from children")
        }
        if node.count != node.children.reduce(0, { $0 + $1.count }) {
            problems.append("\(path): count \(node.count) is not the sum of its children")
        }
        if node.children.count > RowListNode.branchCapacity {
            problems.append("\(path): \(node.children.count) children, over capacity")
        }
        if !isRoot && node.children.count < RowListNode.branchMinimum {
            problems.append("\(path): \(node.children.count) children, under minimum")
        }
        for (index, child) in node.children.enumerated() {
            check(child, path: "\(path)[\(index)]", depth: depth + 1, leafDepths: &leafDepths, problems: &problems)
        }
    }
}
