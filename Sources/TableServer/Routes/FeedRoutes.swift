import JSON
import MicroHTTP
import TableAccess
import TableModel

/// The change feed: `GET …/changes?since=V` and the `GET …/events` stream (docs/API.md, "The change feed and the live stream").
struct FeedRoutes: RouteCollection {
    let context: RouteContext
    /// `Cache-Control` of a closed range of the change feed. No `public`:
    /// reads need no `Authorization`, so shared caches may store it anyway.
    static let closedRange = "max-age=31536000, immutable"

    func register(on routes: inout RouteBuilder) {
        routes.read("/api/tables/{t}/changes", weight: .light, changes)
        routes.read("/api/tables/{t}/events", weight: .light, events)
    }

    func changes(_ request: HTTPRequest) throws -> HTTPResponse {
        // The feed is the table's, in its index paths: never a view's changes as if they were the table's.
        if request.hasViewParameters {
            throw TableServerError.badRequest(
                type: "bad-view-parameter",
                detail:
                    "the change feed is the table's; a view's changes, in its index paths, come from …/events with the same parameters"
            )
        }
        let id = request.tableID
        let since = try request.sinceCursor(in: store.life)
        // `until` below `since` asks for nothing: the empty range at `since`.
        let until = try request.query["until"].map { _ in max(try request.queryInteger("until", default: 0), since) }
        let feed = try store.changes(id, since: since, until: until ?? .max)
        guard let changes = feed.changes else {
            let detail =
                since == .max
                ? "that version is of an earlier life of this server, which restarted without a journal (docs/API.md, \"Caching\"); reload the table"
                : since > feed.current
                    ? "version \(since) is beyond the table's version \(feed.current): this table never had it (was it deleted and created again?); reload the table"
                    : "the changes after version \(since) are no longer kept (the table is at version \(feed.current)); reload the table"
            var response = HTTPResponse.problem(status: 410, type: "history-gone", detail: detail)
            response.headers.set("ETag", ETag.string(for: feed.current))
            return response
        }
        // A range the table has passed never changes: caches may keep it
        // for a year without asking again (docs/API.md, Caching).
        let last = min(until ?? feed.current, feed.current)
        let cacheControl = until.map { $0 <= feed.current } == true ? Self.closedRange : Respond.revalidate
        if ETag.matches(request.headers["If-None-Match"], version: last) {
            return Respond.notModified(etag: ETag.string(for: last), cacheControl: cacheControl)
        }
        // Who made each change is shown to the table's admins alone (docs/ACCESS.md, "Audit").
        let audited = changes.contains { $0.actor != nil } && context.administers(id, request)
        var response = Respond.json(version: last) { writer in
            writer.beginObject()
            writer.key("version"); writer.integer(last)
            writer.key("changes")
            writer.beginArray()
            for change in changes { writer.rawValue(audited ? change.auditedJSON : change.json) }
            writer.endArray()
            writer.endObject()
        }
        response.headers.set("Cache-Control", cacheControl)
        return audited ? context.forAdminOnly(response) : response
    }

    func events(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = request.tableID
        let view = try request.readQuery()
        let since: Int?
        // An id or cursor of another life names a version this life never had: the stream starts with `reset`.
        if let lastEventID = request.headers["Last-Event-ID"],
            let version = store.life.version(ofCursor: Substring(lastEventID.trimmingSpaces()))
        {
            since = version
        } else if request.query["since"] != nil {
            since = try request.sinceCursor(in: store.life)
        } else {
            since = nil
        }
        let stream = EventStream.reserved()
        stream.send(ServerSentEvent.opening())
        try store.subscribe(id, since: since, stream: stream, view: view)
        TokenExpiry.end(stream, for: Requester.current)
        var headers = HTTPHeaders()
        headers.set("Content-Type", "text/event-stream; charset=utf-8")
        headers.set("Cache-Control", "no-cache")
        headers.set("X-Accel-Buffering", "no")
        return HTTPResponse(status: 200, headers: headers, body: .stream(stream))
    }
}
