/// A map of view labels (`ViewLabel`) in steps: from each step's start on (to
/// the next start), a label moves by the step's offset. What one batch of row
/// edits does to the labels of the rows it leaves in place (`LabelShift.map`),
/// and what several do one after the other (`then`): a live view applies the
/// maps of many batches to its stored labels at once (`ViewLabels`).
///
/// Invariants: `starts` ascends from 0, one start a step, no two steps in a
/// row with the same offset; `offsets` has one offset a step. With s steps,
/// mapping a label is a binary search, O(log s), without a branch when
/// rewriting many (`rewrite`).
struct LabelMap: Sendable, Equatable {
    private var starts: [Int64] = [0]
    private var offsets: [Int64] = [0]

    /// The map that moves no label.
    static let identity = LabelMap()

    private init() {}

    /// The map of `steps`, ascending by `from`: from each `from` on, a label
    /// moves by `by`; below the first, it stays.
    init(steps: [(from: UInt64, by: Int64)]) {
        for step in steps { append(Int64(step.from), step.by) }
    }

    /// How many steps the map has.
    var stepCount: Int { starts.count }

    /// The label `label` becomes.
    func callAsFunction(_ label: UInt64) -> UInt64 {
        UInt64(Int64(label) + offsets[step(of: Int64(label))])
    }

    /// This map, then `next`: a label's place is where `next` moves the
    /// place this map gives it. Its steps start at this map's starts and
    /// where one of this map's steps takes a label to one of `next`'s
    /// starts, in order as found: O(s log t + u) for s and t steps, u the
    /// steps made.
    func then(_ next: LabelMap) -> LabelMap {
        var composed = LabelMap()
        for index in starts.indices {
            let start = starts[index]
            let end = index + 1 < starts.count ? starts[index + 1] : Int64.max
            let offset = offsets[index]
            // Within this step, `next`'s steps met, from the one the step's start lands in.
            var step = next.step(of: start + offset)
            composed.append(start, offset + next.offsets[step])
            step += 1
            while step < next.starts.count && next.starts[step] - offset < end {
                composed.append(next.starts[step] - offset, offset + next.offsets[step])
                step += 1
            }
        }
        return composed
    }

    /// Rewrites each of `labels` to the label it becomes: four labels at a
    /// time, their searches in step, so that each waits less on its loads.
    func rewrite(_ labels: UnsafeMutableBufferPointer<UInt64>) {
        starts.withUnsafeBufferPointer { starts in
            offsets.withUnsafeBufferPointer { offsets in
                var index = 0
                while index + 4 <= labels.count {
                    let l0 = Int64(bitPattern: labels[index])
                    let l1 = Int64(bitPattern: labels[index + 1])
                    let l2 = Int64(bitPattern: labels[index + 2])
                    let l3 = Int64(bitPattern: labels[index + 3])
                    var (b0, b1, b2, b3) = (0, 0, 0, 0)
                    var length = starts.count
                    while length > 1 {
                        let half = length / 2
                        b0 = starts[b0 &+ half] <= l0 ? b0 &+ half : b0
                        b1 = starts[b1 &+ half] <= l1 ? b1 &+ half : b1
                        b2 = starts[b2 &+ half] <= l2 ? b2 &+ half : b2
                        b3 = starts[b3 &+ half] <= l3 ? b3 &+ half : b3
                        length &-= half
                    }
                    labels[index] = UInt64(bitPattern: l0 &+ offsets[b0])
                    labels[index + 1] = UInt64(bitPattern: l1 &+ offsets[b1])
                    labels[index + 2] = UInt64(bitPattern: l2 &+ offsets[b2])
                    labels[index + 3] = UInt64(bitPattern: l3 &+ offsets[b3])
                    index += 4
                }
                while index < labels.count {
                    let label = Int64(bitPattern: labels[index])
                    labels[index] = UInt64(bitPattern: label &+ offsets[Self.step(of: label, in: starts)])
                    index += 1
                }
            }
        }
    }

    /// Adds a step from `start` on (past the last), unless it keeps the offset.
    private mutating func append(_ start: Int64, _ offset: Int64) {
        guard offset != offsets[offsets.count - 1] else { return }
        if start == starts[starts.count - 1] {
            offsets[offsets.count - 1] = offset
            // A step replaced may now repeat the one before it.
            if offsets.count > 1 && offsets[offsets.count - 2] == offset {
                starts.removeLast()
                offsets.removeLast()
            }
            return
        }
        starts.append(start)
        offsets.append(offset)
    }

    private func step(of label: Int64) -> Int {
        starts.withUnsafeBufferPointer { Self.step(of: label, in: $0) }
    }

    /// The last step starting at or below `label` (the first starts at 0),
    /// by a binary search whose choices are selects, not branches: labels
    /// rewritten come in no order, so a branch would be mispredicted half
    /// the time.
    @inline(__always)
    private static func step(of label: Int64, in starts: UnsafeBufferPointer<Int64>) -> Int {
        var base = 0
        var length = starts.count
        while length > 1 {
            let half = length / 2
            base = starts[base + half] <= label ? base + half : base
            length -= half
        }
        return base
    }
}
