/// The maps of labels (`LabelMap`) of the batches a live view followed that
/// not every stored label has been through, oldest first.
struct LabelLog: Sendable {
    private(set) var maps: [LabelMap] = []

    /// How many maps the log holds: a label stored at this epoch is current.
    var epoch: Int { maps.count }

    mutating func append(_ map: LabelMap) { maps.append(map) }

    /// The label `stored` becomes through the maps from `epoch` on: O(e log t)
    /// for e maps of t steps.
    func label(_ stored: UInt64, from epoch: Int) -> UInt64 {
        maps[epoch...].reduce(stored) { label, map in map(label) }
    }

    /// The maps from `epoch` on, composed: in pairs, then pairs of those, so
    /// that no map is composed more than log e times (e maps).
    func map(from epoch: Int) -> LabelMap { map(from: epoch, to: maps.count) }

    /// The maps from each of `epochs` on, composed, by epoch (an epoch at the
    /// log's end needs none): the log is cut at the epochs, each piece is
    /// composed as `map(from:)` composes, and onto the composition of the
    /// pieces after it, so that no map is composed more than log e + 1 times
    /// whatever the number of epochs.
    func maps(from epochs: Set<Int>) -> [Int: LabelMap] {
        var composed: [Int: LabelMap] = [:]
        var after = LabelMap.identity
        var end = maps.count
        for epoch in epochs.sorted(by: >) where epoch < end {
            after = map(from: epoch, to: end).then(after)
            composed[epoch] = after
            end = epoch
        }
        return composed
    }

    private func map(from start: Int, to end: Int) -> LabelMap {
        var composed = Array(maps[start..<end])
        while composed.count > 1 {
            composed = stride(from: 0, to: composed.count, by: 2).map { index in
                index + 1 < composed.count ? composed[index].then(composed[index + 1]) : composed[index]
            }
        }
        return composed.first ?? .identity
    }
}

/// The labels (`ViewLabel`) of a live view's rows, section by section
/// (`LabelList`): where each row is in the table the view was last moved to,
/// which breaks the ties of the view's order (`LiveView+Incremental.swift`).
///
/// A batch that inserts, deletes or moves rows moves the labels of the rows it
/// leaves in place (`LabelShift`); the view does not rewrite them then, but
/// logs the batch's map (`shift(by:)`), and a label read is moved through the
/// maps logged since it was stored. Every `bound` maps logged, every label is
/// moved through them, composed, and the log begins again (compaction). The
/// first compaction comes sooner by the view's size, so that the views of a
/// table, which log the same batches, do not all compact at the same one.
///
/// Invariants: each label, moved through the maps of the log its chunk has not
/// been through, is its row's place in the table; the log holds fewer than
/// `bound` maps, and `due` more are logged before the next compaction.
///
/// Complexity, n labels, e maps in the log of t steps each (a one-row edit's
/// has two): logging a map O(1); reading a label O(log c + e log t) (c chunks
/// of its section); inserting one O(b + c + b log(e t)) (b labels a chunk);
/// compaction O(e t log² (e t) + k e t + n log(e t)) (k epochs among the
/// chunks), once every `bound` logged
/// maps, so O(n log(e t) / bound) a batch. Memory: the log's maps, two small
/// arrays each (about 130 bytes for a one-row edit's, 16 KiB for 128), and one
/// epoch a chunk of up to 1,024 labels.
struct ViewLabels: Sendable, Equatable {
    /// Maps logged before compaction, unless told otherwise.
    static let defaultBound = 128

    let bound: Int
    private var lists: [LabelList]
    private var log = LabelLog()
    private var due: Int

    /// The labels of each section of the view, in the view's order,
    /// compacted every `bound` maps logged.
    init(_ sections: [[UInt64]], bound: Int = Self.defaultBound) {
        lists = sections.map { LabelList($0, epoch: 0) }
        self.bound = bound
        due = bound - sections.reduce(0) { $0 + $1.count } % bound
    }

    /// How many rows section `section` has.
    func count(_ section: Int) -> Int { lists[section].count }

    /// The label of row `position` of section `section`.
    subscript(section: Int, position: Int) -> UInt64 {
        lists[section].label(at: position, through: log)
    }

    /// Every section's labels, in order.
    var sections: [[UInt64]] { lists.map { $0.labels(through: log) } }

    /// Inserts a section of `labels` (current ones) at `index`.
    mutating func insertSection(_ labels: [UInt64], at index: Int) {
        lists.insert(LabelList(labels, epoch: log.epoch), at: index)
    }

    mutating func removeSection(at index: Int) { lists.remove(at: index) }

    /// Inserts `label` (a current one) at `path`.
    mutating func insert(_ label: UInt64, at path: TableIndexPath) {
        let log = log
        lists[path.section].insert(label, at: path.row, through: log)
    }

    mutating func remove(at path: TableIndexPath) { lists[path.section].remove(at: path.row) }

    /// Moves every label through `shift`, each of a row that remains in the
    /// table: logged, and compacted when due.
    mutating func shift(by shift: LabelShift) {
        log.append(shift.map)
        due -= 1
        guard due == 0 else { return }
        due = bound
        let composed = log.maps(from: Set(lists.lazy.flatMap(\.epochs)))
        for index in lists.indices { lists[index].compact { composed[$0] } }
        log = LabelLog()
    }

    static func == (lhs: ViewLabels, rhs: ViewLabels) -> Bool {
        lhs.sections == rhs.sections
    }
}
