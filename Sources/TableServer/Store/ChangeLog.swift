import TableModel

/// One applied batch, as the change feed publishes it.
struct Change: Sendable {
    /// The table's version after this change.
    var version: Int
    /// The normalised batch (docs/API.md, "A batch").
    var batch: Batch
    /// `{"version":…,"batch":…}`, encoded once when the change is made.
    var json: [UInt8]
    /// The complete Server-Sent-Events `update` event, with rendered HTML.
    var event: [UInt8]
}

/// The last `capacity` changes of one table, oldest first: a ring buffer, so that
/// recording a change is O(1) however long the server runs.
struct ChangeLog: Sendable {
    private var buffer: [Change] = []
    private var start = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    mutating func append(_ change: Change) {
        if buffer.count < capacity {
            buffer.append(change)
        } else {
            buffer[start] = change
            start = (start + 1) % capacity
        }
    }

    /// The changes after `version`, in order; nil when some of them are no longer
    /// kept (the client must reload). `current` is the table's version now.
    func changes(after version: Int, current: Int) -> [Change]? {
        changes(after: version, through: current, current: current)
    }

    /// The changes after `version` up to and including `last` (or `current`,
    /// when that is lower), in order; nil when some of them are no longer kept.
    func changes(after version: Int, through last: Int, current: Int) -> [Change]? {
        guard version <= current, version >= 0, last >= version else { return nil }
        let missing = current - version
        guard missing <= buffer.count else { return nil }
        let wanted = min(last, current) - version
        var result: [Change] = []
        result.reserveCapacity(wanted)
        let first = buffer.count - missing
        for offset in first..<(first + wanted) {
            result.append(buffer[(start + offset) % buffer.count])
        }
        return result
    }
}
