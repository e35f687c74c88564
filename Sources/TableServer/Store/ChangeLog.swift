import TableModel

/// One applied batch, as the change feed publishes it.
struct Change: Sendable {
    /// The table's version after this change.
    var version: Int
    /// `{"version":…,"batch":…}`, encoded once when the change is made.
    var json: [UInt8]
    /// The complete Server-Sent-Events `update` event, with rendered HTML.
    var event: [UInt8]
    /// Who made it (`ChangeActor`), when that is known: shown on the feed
    /// to the table's admins only, so in neither encoding.
    var actor: String?

    /// What keeping it costs, in bytes (its two encodings and its actor; the batch itself is not kept).
    var size: Int { json.count + event.count + (actor?.utf8.count ?? 0) }

    /// `json`, with the `actor` member when the change has one: the feed's
    /// entry for an admin of the table (docs/ACCESS.md, "Audit").
    var auditedJSON: [UInt8] {
        actor.map { ChangeActor.appending($0, to: json) } ?? json
    }
}

/// The last changes of one table, oldest first, for `/changes` and event-stream
/// replay: at most `capacity` of them and at most `byteLimit` bytes together
/// (docs/RELIABILITY.md, "Memory"). Recording a change is amortised O(1).
///
/// The changes kept are always the latest ones, consecutive up to the table's
/// version: a change larger than `byteLimit` on its own is not kept, and
/// neither is anything before it, so a client that needs it reloads (410, or
/// `reset` on an event stream).
struct ChangeLog: Sendable {
    /// Kept changes from `head` on; removed ones are nil until compacted.
    private var storage: [Change?] = []
    private var head = 0
    /// The bytes of the kept changes.
    private(set) var bytes = 0
    let capacity: Int
    let byteLimit: Int

    init(capacity: Int, byteLimit: Int = .max) {
        self.capacity = max(1, capacity)
        self.byteLimit = max(1, byteLimit)
    }

    /// How many changes are kept.
    var count: Int { storage.count - head }

    mutating func append(_ change: Change) {
        let size = change.size
        guard size <= byteLimit else {
            removeAll()
            return
        }
        while count >= capacity || bytes + size > byteLimit {
            removeOldest()
        }
        storage.append(change)
        bytes += size
    }

    private mutating func removeOldest() {
        bytes -= storage[head]?.size ?? 0
        storage[head] = nil
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }

    private mutating func removeAll() {
        storage = []
        head = 0
        bytes = 0
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
        guard missing <= count else { return nil }
        let wanted = min(last, current) - version
        let first = storage.count - missing
        return storage[first..<(first + wanted)].map { $0! }
    }
}
