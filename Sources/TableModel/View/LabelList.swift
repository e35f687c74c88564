/// The labels (`ViewLabel`) of one section of a live view, in the view's order,
/// beside its rows: position `i` holds the label of the view's row `i`, as
/// stored, to be moved through the maps of the view's log (`LabelLog`) it has
/// not been through.
///
/// Cut into chunks of at most `chunkCapacity` labels, with the position of each
/// chunk's first label kept in `starts`, and with each chunk's epoch: how many
/// of the log's maps its labels went through. With c chunks and b =
/// `chunkCapacity`: reading a position is a binary search of `starts`,
/// O(log c), then the label moved through the maps its chunk has not been
/// through; inserting or removing one shifts labels within its chunk and the
/// starts after it, O(b + c) plain integer moves (about a microsecond at a
/// million labels), and an insert first brings its chunk's labels up to the
/// log's end (O(b log s), s steps of the maps composed). A full chunk splits in
/// two; an empty one goes.
///
/// Invariants: no chunk is empty; `starts[i]` is the number of labels in the
/// chunks before `i`; `count` is the number of labels; `epochs[i]` is at most
/// the log's length, the same for every label of chunk `i`.
struct LabelList: Sendable {
    static let chunkCapacity = 1024

    private var chunks: [[UInt64]] = []
    /// Each chunk's epoch.
    private(set) var epochs: [Int] = []
    private var starts: [Int] = []
    private(set) var count = 0

    /// The list of `labels`, each through the first `epoch` maps of the log.
    init(_ labels: [UInt64], epoch: Int) {
        var start = 0
        while start < labels.count {
            let end = min(start + Self.chunkCapacity / 2, labels.count)
            chunks.append(Array(labels[start..<end]))
            epochs.append(epoch)
            starts.append(start)
            start = end
        }
        count = labels.count
    }

    /// The label at `position` (`0..<count`), through every map of `log`.
    func label(at position: Int, through log: LabelLog) -> UInt64 {
        let chunk = chunk(holding: position)
        return log.label(chunks[chunk][position - starts[chunk]], from: epochs[chunk])
    }

    /// Every label, in order, through every map of `log`.
    func labels(through log: LabelLog) -> [UInt64] {
        (0..<count).map { label(at: $0, through: log) }
    }

    /// Inserts `label` (through every map of `log`) so that it ends up at
    /// `position` (`0...count`).
    mutating func insert(_ label: UInt64, at position: Int, through log: LabelLog) {
        guard !chunks.isEmpty else {
            chunks = [[label]]
            epochs = [log.epoch]
            starts = [0]
            count = 1
            return
        }
        // The end of the list goes into the last chunk.
        let chunk = position == count ? chunks.count - 1 : chunk(holding: position)
        if epochs[chunk] < log.epoch { rewrite(chunk, by: log.map(from: epochs[chunk]), epoch: log.epoch) }
        chunks[chunk].insert(label, at: position - starts[chunk])
        for index in (chunk + 1)..<starts.count { starts[index] += 1 }
        count += 1
        if chunks[chunk].count > Self.chunkCapacity {
            let half = chunks[chunk].count / 2
            let tail = Array(chunks[chunk][half...])
            chunks[chunk].removeSubrange(half...)
            chunks.insert(tail, at: chunk + 1)
            epochs.insert(epochs[chunk], at: chunk + 1)
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
            epochs.remove(at: chunk)
            starts.remove(at: chunk)
        }
    }

    /// Moves every label through the maps of the log its chunk has not been
    /// through (`map(epoch)`: those maps composed), so that it has been
    /// through none of a log begun again: O(count log s) plain integer work.
    mutating func compact(_ map: (_ epoch: Int) -> LabelMap?) {
        for chunk in chunks.indices {
            if let map = map(epochs[chunk]) { rewrite(chunk, by: map, epoch: 0) } else { epochs[chunk] = 0 }
        }
    }

    private mutating func rewrite(_ chunk: Int, by map: LabelMap, epoch: Int) {
        chunks[chunk].withUnsafeMutableBufferPointer { map.rewrite($0) }
        epochs[chunk] = epoch
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
}
