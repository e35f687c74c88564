import JSON
import MicroHTTP
import TableModel

/// The views of one table that event streams follow (`…/events?q=…`,
/// docs/API.md, "Views"): one `LiveView` per view, in its one spelling
/// (`TableQuery.canonicalQuery`), shared by every stream that follows it — a
/// hundred streams of one view cost one derivation and one update a change.
///
/// Held by the table's `ViewKeeper`, and touched on its queue alone, never
/// under the table's lock. A view is opened by its first stream and dropped
/// with its last, so a view nobody follows costs nothing, and an idle table
/// costs no CPU for its views. Each change of the table moves every open view
/// (`LiveView`): a batch of row reloads (a one-row edit, by index or id),
/// inserts, deletes or moves incrementally, O(k log² n) a view for k rows (its
/// labels moved lazily when rows are inserted, deleted or moved: a pass over
/// them every 128 such batches); any other change by deriving the view again
/// and diffing it with the view as it was, O(n) a view, n the table's rows.
/// The view's streams get one `update` when the view changed, nothing when not.
/// Each view keeps its last `kept` updates so a stream that reconnects with
/// `Last-Event-ID` continues without a gap; further back it gets `reset`.
struct OpenViews: Sendable {
    struct OpenView: Sendable {
        var live: LiveView
        var subscribers: [EventStream] = []
        /// The table's version when the view was opened or last sent `reset`:
        /// no stream can continue from before it.
        var origin: Int
        /// The latest updates, oldest first: each applies to the view as it was
        /// at `since` (and at every version up to the update's own).
        var recent: [(since: Int, version: Int, event: [UInt8])] = []
    }

    /// Updates kept a view for reconnecting streams.
    static let kept = 64

    /// A change of the table for its views to follow: the table after it, the
    /// batches (as applied, in order) that made it of the table before, and
    /// the events' maker of its moment.
    struct TableChange: Sendable {
        let table: Table
        let batches: [Batch]
        let events: ChangeEvents
    }

    private(set) var views: [String: OpenView] = [:]

    /// Whether any view is open.
    var isEmpty: Bool { views.isEmpty }

    /// The views open now.
    var count: Int { views.count }

    /// Adds `stream` to the view `query` of `table`, opening it if need be;
    /// answers what the stream is sent first: for `since`, the view's updates
    /// after it, or `reset` with the whole view when they are not kept. The
    /// bound on views is the keeper's (`ViewKeeper.limit`).
    mutating func subscribe(
        _ stream: EventStream, to query: TableQuery, of table: Table, since: Int?, life: ServerLife = .lasting
    ) -> [[UInt8]] {
        let key = query.canonicalQuery
        var view = views[key] ?? OpenView(live: LiveView(query: query, table: table), origin: table.version)
        defer { views[key] = view }
        view.subscribers.append(stream)
        guard let since else { return [] }
        // A stream ahead of the table (the server restarted without its
        // journal) holds a view this server never had: it starts again.
        if since > table.version { return [Self.reset(view.live.view, life: life)] }
        guard since < table.version else { return [] }
        let missed = view.recent.drop { $0.version <= since }
        // Nothing is missing when the first update after `since` applies to the
        // view the stream holds; before the view was opened, or past updates no
        // longer kept, the stream gets the whole view.
        guard since >= view.origin, missed.first.map({ $0.since <= since }) ?? true else {
            return [Self.reset(view.live.view, life: life)]
        }
        return missed.map(\.event)
    }

    /// Takes `stream` off every view; a view left without streams is dropped,
    /// and answered, for the caller to free (a view of 20,000 rows takes
    /// milliseconds to free, docs/perf-history/live-views-and-search.md).
    mutating func unsubscribe(_ id: ObjectIdentifier) -> [OpenView] {
        var dropped: [OpenView] = []
        for key in Array(views.keys) {
            views[key]!.subscribers.removeAll { ObjectIdentifier($0) == id }
            if views[key]!.subscribers.isEmpty, let view = views.removeValue(forKey: key) { dropped.append(view) }
        }
        return dropped
    }

    /// Moves every view to `table`, which `batches` (as applied, in order) just
    /// made of the table the views were last moved to; answers each changed
    /// view's event with the streams it goes to.
    mutating func update(
        to table: Table, by batches: [Batch], events: ChangeEvents
    ) -> [(event: [UInt8], streams: [EventStream])] {
        var deliveries: [(event: [UInt8], streams: [EventStream])] = []
        // One change for every view: what following it takes that is the same for all is worked out once.
        var change = LiveView.Change(to: table, by: batches)
        // Each view is changed where the dictionary keeps it (`views[key]!`),
        // the keys taken first: a copy of the view, or of the dictionary (which
        // iterating its values would hold), would make its id set be copied
        // whole when ids come or go.
        for key in Array(views.keys) {
            let since = views[key]!.recent.last?.version ?? views[key]!.origin
            guard let steps = views[key]!.live.update(&change) else {
                views[key]!.recent = []
                views[key]!.origin = table.version
                deliveries.append((Self.reset(views[key]!.live.view, life: events.life), views[key]!.subscribers))
                continue
            }
            guard !steps.isEmpty else { continue }
            let event = events.viewUpdate(version: table.version, since: since, steps: steps)
            views[key]!.recent.append((since, table.version, event))
            let excess = views[key]!.recent.count - Self.kept
            if excess > 0 { views[key]!.recent.removeFirst(excess) }
            deliveries.append((event, views[key]!.subscribers))
        }
        return deliveries
    }

    /// Moves every view through `changes`, consecutive, in order: one by one
    /// when each is one batch of row edits the views follow incrementally;
    /// else as one change from the table before the first to the table after
    /// the last, so that a run of changes that derive the views again (a
    /// section inserted, say) derives each view once. Answers each changed
    /// view's events with the streams they go to.
    mutating func update(through changes: [TableChange]) -> [(event: [UInt8], streams: [EventStream])] {
        let incremental = changes.allSatisfy { $0.batches.count == 1 && LiveView.followsRowEdits($0.batches[0]) }
        guard !incremental, let last = changes.last else {
            return changes.flatMap { update(to: $0.table, by: $0.batches, events: $0.events) }
        }
        return update(to: last.table, by: changes.flatMap(\.batches), events: last.events)
    }

    /// Sends every view `reset` after the table was replaced (`TableStore.reload`).
    mutating func reset(to table: Table, life: ServerLife) -> [(event: [UInt8], streams: [EventStream])] {
        var deliveries: [(event: [UInt8], streams: [EventStream])] = []
        for key in Array(views.keys) {
            var view = views[key]!
            view.live = LiveView(query: view.live.query, table: table)
            view.recent = []
            view.origin = table.version
            deliveries.append((Self.reset(view.live.view, life: life), view.subscribers))
            views[key] = view
        }
        return deliveries
    }

    /// Every view's streams, which the table forgets with its views.
    mutating func takeSubscribers() -> [EventStream] {
        defer { views = [:] }
        return views.values.flatMap(\.subscribers)
    }

    /// `reset` carrying the whole view: `{"version", "table"}`, its id a cursor of `life`.
    static func reset(_ view: Table, life: ServerLife) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: view.estimatedJSONCount + 32)
        writer.beginObject()
        writer.key("version"); writer.integer(view.version)
        writer.key("table"); view.writeJSON(to: &writer)
        writer.endObject()
        return FeedEvent.event("reset", id: life.cursor(view.version), data: writer.bytes)
    }
}
