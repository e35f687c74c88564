import MicroHTTP
import Synchronization
import TableModel

/// One table on the server, with its change log and the event streams watching it.
///
/// Everything mutable about a table sits in one `Mutex`: a writer applies its
/// batch, records the change and hands the event to every subscriber while
/// holding it, so versions are gap-free, subscribers see changes in order, and a
/// reader copies the table (O(1), copy-on-write) and never sees half a batch.
/// With a journal, the writer also appends the change to it under this lock, so
/// the journal holds each table's changes in the order they were applied.
final class TableHandle: Sendable {
    struct State: Sendable {
        var table: Table
        var log: ChangeLog
        var subscribers: [EventStream] = []
        var isDeleted = false
        /// The sequence number of the last journal record about this table (0 without a journal).
        var journalSequence: UInt64 = 0
    }

    private let state: Mutex<State>

    init(table: Table, history: Int) {
        state = Mutex(State(table: table, log: ChangeLog(capacity: history)))
    }

    /// A consistent copy of the table as it is now.
    var table: Table { state.withLock { $0.table } }

    /// Runs `body` with exclusive access to the table's state.
    func withState<T>(_ body: (inout State) throws -> T) throws -> T {
        try state.withLock { (state: inout State) throws -> T in
            guard !state.isDeleted else { throw TableServerError.tableGone(state.table.id) }
            return try body(&state)
        }
    }

    /// Forgets a stream whose client went away.
    func removeSubscriber(_ id: ObjectIdentifier) {
        state.withLock { state in state.subscribers.removeAll { ObjectIdentifier($0) == id } }
    }

    /// Marks the table deleted (`withState` refuses from now on) and answers its
    /// subscribers, whom it forgets; call with the lock held, through `withState`.
    static func markDeleted(_ state: inout State) -> [EventStream] {
        state.isDeleted = true
        defer { state.subscribers.removeAll() }
        return state.subscribers
    }

    /// Sends `deleted` to the streams of a deleted table and ends them.
    static func sendDeleted(tableID: String, to streams: [EventStream]) {
        let event = FeedEvent.deleted(tableID: tableID)
        for stream in streams {
            stream.send(event)
            stream.close()
        }
    }
}
