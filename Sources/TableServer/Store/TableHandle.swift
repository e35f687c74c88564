import MicroHTTP
import Synchronization
import TableModel

/// One table on the server, with its change log and the event streams watching it.
///
/// Everything mutable about a table sits in one `Mutex`: a writer applies its
/// batch, records the change and queues its event for the subscribers while
/// holding it, so versions are gap-free and a reader copies the table (O(1),
/// copy-on-write) and never sees half a batch. With a durable log (`TableLog`),
/// the writer records the change there under this lock, before applying it, so
/// the log holds each table's changes in the order they were applied.
///
/// Events are handed to the streams by the table's own `EventDelivery`, off
/// the lock: fanning one change out to thousands of streams takes a while, and
/// neither the writer's answer nor the table's readers wait for it. Each
/// delivery carries the subscribers of the moment it was queued, so a stream
/// that subscribes — and is sent the changes it missed, under the lock — gets
/// every later change exactly once, in order, after them.
final class TableHandle: Sendable {
    struct State: Sendable {
        var table: Table
        var log: ChangeLog
        var subscribers: [EventStream] = []
        /// The views of the table event streams follow, with their streams,
        /// kept off this lock (`ViewKeeper`).
        var views: ViewKeeper
        var isDeleted = false
        /// The durable log's mark for this table (`TableLog`): the sequence number
        /// of its last journal record, or its incarnation in the database; 0 without a log.
        var logMark: UInt64 = 0
        /// The edits waiting for, or in, this table's group commit (a log that
        /// commits in groups only).
        var group = GroupCommit()
        /// The `Idempotency-Key`s of the edits made lately, with their answers.
        var keys = IdempotencyKeys()
        /// Delivers this table's events, in the order they were queued.
        let delivery: EventDelivery

        /// Queues `events` for every stream subscribed now; call with the lock
        /// held, so deliveries are queued in version order. A stream that cannot
        /// take an event (closed, or its client too slow) closes itself, and its
        /// close action takes it off `subscribers`.
        func deliver(_ events: [[UInt8]]) {
            delivery.deliver(events, to: subscribers)
        }

        /// Queues the table as it is now, which `batches` (as applied, in
        /// order) made, for the open views to follow on their keeper's queue,
        /// which queues each changed view's update for its streams; call with
        /// the lock held, right after the table's own events (`TableStore.publish`).
        func deliverToViews(_ events: ChangeEvents, batches: [Batch]) {
            views.follow(table, by: batches, events: events)
        }

        /// The streams subscribed now, not the views' (`ViewKeeper.end`), which the table forgets.
        mutating func takeSubscribers() -> [EventStream] {
            defer { subscribers.removeAll() }
            return subscribers
        }
    }

    private let state: Mutex<State>
    /// The table's version, or -1 once it is deleted: set under the lock after
    /// every `withState`, so that the server stops sending answers kept from an
    /// earlier version (`HTTPResponse.reusable`) before the edit is answered.
    let revision: Revision
    /// The views read lately, so that the pages of a view derive it once a version.
    let views = ViewCache()

    init(table: Table, log: ChangeLog, fanOut: EventFanOut = .batched) {
        let delivery = EventDelivery(fanOut: fanOut)
        state = Mutex(State(table: table, log: log, views: ViewKeeper(delivery: delivery), delivery: delivery))
        revision = Revision(table.version)
    }

    /// A consistent copy of the table as it is now.
    var table: Table { state.withLock { $0.table } }

    /// The table's version as it is now, or -1 once it is deleted (as `revision`).
    var version: Int { state.withLock { $0.isDeleted ? -1 : $0.table.version } }

    /// The views of the table event streams follow now (`OpenViews`).
    var openViewCount: Int { state.withLock { $0.views }.count }

    /// The views the table's keeper holds now, rows and all (`ViewKeeper.heldCount`).
    var heldViewCount: Int { state.withLock { $0.views }.heldCount }

    /// Runs `body` with exclusive access to the table's state.
    func withState<T>(_ body: (inout State) throws -> T) throws -> T {
        try state.withLock { (state: inout State) throws -> T in
            guard !state.isDeleted else { throw TableServerError.tableGone(state.table.id) }
            defer { revision.set(state.isDeleted ? -1 : state.table.version) }
            return try body(&state)
        }
    }

    /// Runs `body` with exclusive access to the table's state, deleted or not
    /// (to answer the edits of a group commit whatever became of the table).
    func withAnyState<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try state.withLock { (state: inout State) throws -> T in
            defer { revision.set(state.isDeleted ? -1 : state.table.version) }
            return try body(&state)
        }
    }

    /// Forgets a stream whose client went away.
    func removeSubscriber(_ id: ObjectIdentifier) {
        let views = state.withLock { state in
            state.subscribers.removeAll { ObjectIdentifier($0) == id }
            return state.views
        }
        // A view its last stream left is freed on its keeper's queue: no edit waits for it.
        views.unsubscribe(id)
    }

    /// Marks the table deleted (`withState` refuses from now on) and, after the
    /// changes already queued, sends `deleted` to its streams and ends them. Call
    /// with the lock held, through `withState`.
    static func markDeleted(_ state: inout State) {
        state.isDeleted = true
        let streams = state.takeSubscribers()
        let deleted = FeedEvent.deleted(tableID: state.table.id)
        state.delivery.deliver([deleted], to: streams)
        state.delivery.afterDeliveries { streams.forEach { $0.close() } }
        // The views' streams after the updates queued for them.
        let delivery = state.delivery
        state.views.end { streams in
            delivery.deliver([deleted], to: streams)
            delivery.afterDeliveries { streams.forEach { $0.close() } }
        }
    }

    /// Ends every stream once the events queued for it are handed over, and
    /// returns when they are (server shutdown).
    func closeStreams() {
        let (streams, delivery, views) = state.withLock { state in
            (state.takeSubscribers(), state.delivery, state.views)
        }
        delivery.afterDeliveries { streams.forEach { $0.close() } }
        views.end { streams in delivery.afterDeliveries { streams.forEach { $0.close() } } }
        views.flush()
        delivery.flush()
    }
}
