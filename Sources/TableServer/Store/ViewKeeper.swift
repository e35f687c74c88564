import Dispatch
import MicroHTTP
import ProcessMetrics
import Synchronization
import TableModel

/// Keeps one table's live views (`OpenViews`) off the table's lock and off
/// the threads that answer requests (docs/ARCHITECTURE.md, "Live views").
///
/// Under the table's lock, a stream subscribing, a stream leaving, a change
/// and a reload are only queued here, in the table's version order, with the
/// table as it was then (a copy-on-write copy, O(1)); the work they take —
/// deriving a view (O(n) over the table's n rows), following a change, a
/// snapshot diff, freeing a view's rows — runs on this keeper's own serial
/// queue. So neither an edit's answer, nor a read of the table, nor `/healthz`
/// waits for the views, however many are open and whatever the change.
///
/// Changes queued while the keeper was busy are followed together: a run of
/// changes that holds one the views cannot follow incrementally (a section
/// inserted, say, which derives every view again) is followed as one change,
/// from its first version to its last, so a burst of such edits costs each
/// view one derivation rather than one per edit. A view's update then says
/// so: `since` is the version its batches apply to (docs/API.md, "Views").
///
/// The bound on views (`limit`) is checked when a stream subscribes, under
/// the table's lock, from the keeper's own count of the views streams follow
/// (`Admission`), which the queue never holds up.
final class ViewKeeper: Sendable {
    /// Views open at once on one table: a change the views cannot follow
    /// incrementally costs O(n) a view, so their number is bounded; a stream
    /// asking for one more is refused.
    static let limit = 100

    /// What is queued for the views, in the table's version order.
    private enum Work {
        case subscribe(EventStream, TableQuery, Table, since: Int?, life: ServerLife)
        case unsubscribe(ObjectIdentifier)
        case change(OpenViews.TableChange)
        case reset(Table, ServerLife)
        /// Takes every stream off the views, which go, and hands the streams to the action.
        case end(@Sendable ([EventStream]) -> Void)
    }

    /// The views streams follow, as subscriptions left them (ahead of the queue).
    private struct Admission {
        var keys: [ObjectIdentifier: String] = [:]
        var streams: [String: Int] = [:]
    }

    /// The views, and the streams that came to subscribe once the keeper was
    /// ending: kept until the end hands them on, in whichever run it comes.
    private struct QueueState {
        var views = OpenViews()
        var unopened: [EventStream] = []
    }

    private struct Pending {
        var work: [Work] = []
        var isScheduled = false
    }

    private let queue = DispatchQueue(label: "webtableview.views")
    private let admission = Mutex(Admission())
    private let pending = Mutex(Pending())
    /// What only `queue` touches (the lock is never contended).
    private let state = Mutex(QueueState())
    /// The views the queue holds now: with their rows, until it lets them go.
    private let held = Atomic<Int>(0)
    /// Set by `end`: the table is gone or the server stopping.
    private let ending = Atomic<Bool>(false)
    private let delivery: EventDelivery

    init(delivery: EventDelivery) {
        self.delivery = delivery
    }

    /// Whether any stream follows a view.
    var isEmpty: Bool { admission.withLock { $0.streams.isEmpty } }

    /// The views streams follow now.
    var count: Int { admission.withLock { $0.streams.count } }

    /// The views the keeper holds now, rows and all: those streams follow,
    /// and those whose last stream left that are not freed yet.
    var heldCount: Int { held.load(ordering: .relaxed) }

    /// Adds `stream` to the view `query` of `table` (opened, if need be, on the
    /// keeper's queue); the stream is first sent, for `since`, the view's
    /// updates after it, or `reset` with the whole view (`OpenViews.subscribe`).
    /// Call under the table's lock. Refused when `limit` views are open and
    /// `query` is not one of them.
    func subscribe(
        _ stream: EventStream, to query: TableQuery, of table: Table, since: Int?, life: ServerLife
    ) throws(TableServerError) {
        let key = query.canonicalQuery
        let admitted = admission.withLock { admission in
            guard admission.streams[key] != nil || admission.streams.count < Self.limit else { return false }
            admission.keys[ObjectIdentifier(stream)] = key
            admission.streams[key, default: 0] += 1
            return true
        }
        guard admitted else { throw .tooManyViews(table: table.id, limit: Self.limit) }
        enqueue(.subscribe(stream, query, table, since: since, life: life))
    }

    /// Takes the stream `id` off its view; a view left without streams is freed on the keeper's queue.
    func unsubscribe(_ id: ObjectIdentifier) {
        let known = admission.withLock { admission in
            guard let key = admission.keys.removeValue(forKey: id) else { return false }
            admission.streams[key]! -= 1
            if admission.streams[key] == 0 { admission.streams[key] = nil }
            return true
        }
        if known { enqueue(.unsubscribe(id)) }
    }

    /// Moves every view to `table`, which `batches` (as applied, in order) made
    /// of the table last queued; call under the table's lock, after its own events.
    func follow(_ table: Table, by batches: [Batch], events: ChangeEvents) {
        guard !isEmpty else { return }
        enqueue(.change(OpenViews.TableChange(table: table, batches: batches, events: events)))
    }

    /// Sends every view `reset` after the table was replaced (`TableStore.reload`).
    func reset(to table: Table, life: ServerLife) {
        guard !isEmpty else { return }
        enqueue(.reset(table, life))
    }

    /// Takes every stream off the views and hands them to `action` on the
    /// keeper's queue (the table deleted, the server stopping): after the work
    /// under way, with the views' work queued before it skipped (their streams
    /// are ending), so that a stop waits for one run of the views' work at most.
    func end(_ action: @escaping @Sendable ([EventStream]) -> Void) {
        admission.withLock { $0 = Admission() }
        ending.store(true, ordering: .relaxed)
        enqueue(.end(action))
    }

    /// Returns once everything queued so far is done.
    func flush() {
        queue.sync {}
    }

    private func enqueue(_ work: Work) {
        let schedule = pending.withLock { pending in
            pending.work.append(work)
            defer { pending.isScheduled = true }
            return !pending.isScheduled
        }
        if schedule { queue.async { self.run() } }
    }

    /// Does everything queued, in order, then frees the views dropped.
    private func run() {
        let work = pending.withLock { pending in
            pending.isScheduled = false
            defer { pending.work = [] }
            return pending.work
        }
        var outcome = Outcome()
        let remaining = state.withLock { state in
            perform(work, in: &state, into: &outcome)
            return state.views.count
        }
        for (events, streams) in outcome.deliveries { delivery.deliver(events, to: streams) }
        let freed = !outcome.dropped.isEmpty
        outcome.dropped = []
        held.store(remaining, ordering: .relaxed)
        // The views' rows are free: handed back to the system rather than kept as free heap.
        if freed && remaining == 0 { ProcessMetrics.releaseFreeHeap() }
    }

    /// What a run leaves to do once the views are let go: events to deliver, views to free.
    private struct Outcome {
        var deliveries: [(events: [[UInt8]], streams: [EventStream])] = []
        var dropped: [OpenViews.OpenView] = []
    }

    /// Does `work` in order: a run of changes holding one the views cannot
    /// follow incrementally is followed as one change (`OpenViews.update(through:)`).
    /// Once the keeper is ending, only its end is done (the streams close).
    private func perform(_ work: [Work], in state: inout QueueState, into outcome: inout Outcome) {
        var index = work.startIndex
        while index < work.endIndex {
            if case .change = work[index], !ending.load(ordering: .relaxed) {
                var changes: [OpenViews.TableChange] = []
                while index < work.endIndex, case .change(let change) = work[index] {
                    changes.append(change)
                    index += 1
                }
                outcome.deliveries += state.views.update(through: changes).map { ([$0.event], $0.streams) }
                continue
            }
            switch work[index] {
            case .end(let action):
                let streams = state.views.takeSubscribers() + state.unopened
                state.unopened = []
                // The updates before the end are queued before the action's own deliveries.
                for (events, streams) in outcome.deliveries { delivery.deliver(events, to: streams) }
                outcome.deliveries = []
                action(streams)
            case .subscribe(let stream, _, _, _, _) where ending.load(ordering: .relaxed):
                state.unopened.append(stream)
            case .subscribe(let stream, let query, let table, let since, let life):
                let missed = state.views.subscribe(stream, to: query, of: table, since: since, life: life)
                outcome.deliveries.append((missed, [stream]))
            case .unsubscribe(let id): outcome.dropped += state.views.unsubscribe(id)
            case .reset(let table, let life) where !ending.load(ordering: .relaxed):
                outcome.deliveries += state.views.reset(to: table, life: life).map { ([$0.event], $0.streams) }
            case .reset, .change: break
            }
            index += 1
        }
    }
}
