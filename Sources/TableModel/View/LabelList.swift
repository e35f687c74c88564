/// The labels (`ViewLabel`) of one section of a live view, in the view's order,
/// beside its rows: position `i` holds the label of the view's row `i`.
///
/// Cut into chunks of at most `chunkCapacity` labels, with the position of each
/// chunk's first label kept in `starts`. With c chunks and b = `chunkCapacity`:
/// reading a position is a binary search of `starts`, O(log c); inserting or
/// removing one shifts labels within its chunk and the starts after it, O(b + c)
/// plain integer moves (about a microsecond at a million labels). A full chunk
/// splits in two; an empty one goes.
///
/// Invariants: no chunk is empty; `starts[i]` is the number of labels in the
/// chunks before `i`; `count` is the number of labels.
struct LabelList: Sendable, Equatable {
    static let chunkCapacity = 1024

    private var chunks: [[UInt64]] = []
    private var starts: [Int] = []
    private(set) var count = 0

    init(_ labels: [UInt64]) {
        var start = 0
        while start < labels.count {
            let end = min(start + Self.chunkCapacity / 2, labels.count)
            chunks.append(Array(labels[start..<end]))
            starts.append(start)
            start = end
        }
        count = labels.count
    }

    /// The label at `position` (`0..<count`).
    subscript(position: Int) -> UInt64 {
        let chunk = chunk(holding: position)
        return chunks[chunk][position - starts[chunk]]
    }

    /// Inserts `label` so that it ends up at `position` (`0...count`).
    mutating func insert(_ label: UInt64, at position: Int) {
        guard !chunks.isEmpty else {
            chunks = [[label]]
            starts = [0]
            count = 1
            return
        }
        // The end of the list goes into the last chunk.
        let chunk = position == count ? chunks.count - 1 : chunk(holding: position)
        chunks[chunk].insert(label, at: position - starts[chunk])
        for index in (chunk + 1)..<starts.count { starts[index] += 1 }
        count += 1
        if chunks[chunk].count > Self.chunkCapacity {
            let half = chunks[chunk].count / 2
            let tail = Array(chunks[chunk][half...])
            chunks[chunk].removeSubrange(half...)
            chunks.insert(tail, at: chunk + 1)
            starts.insert(starts[chunk] + half, at: chunk + 1)
        }
    }

    /// Removes the label at `position` (`0..<count`).
    mutating func remove(at position: Int) {
        let chunk = chunk(holding: position)
        chunks[chunk].remove(at: position - starts[chunk])
        for index in (chunk + 1)..<starts.count { starts[index] -= 1 }
        count -= 1
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            starts.remove(at: chunk)
        }
    }

    /// Rewrites every label through `shift` (each of a row that remains in
    /// the table): O(count) plain integer work, chunk by chunk in place.
    mutating func rewrite(by shift: LabelShift) {
        for chunk in chunks.indices {
            chunks[chunk].withUnsafeMutableBufferPointer { shift.rewrite($0) }
        }
    }

    /// The chunk holding `position`: the last whose start is at or before it.
    private func chunk(holding position: Int) -> Int {
        precondition(position >= 0 && position < count, "LabelList position out of range")
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    static func == (lhs: LabelList, rhs: LabelList) -> Bool {
        lhs.count == rhs.count && (0..<lhs.count).allSatisfy { lhs[$0] == rhs[$0] }
    }
}
