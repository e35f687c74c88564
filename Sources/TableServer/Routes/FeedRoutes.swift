import JSON
import MicroHTTP
import TableModel

/// The change feed: `GET …/changes?since=V` and the `GET …/events` stream (SPEC §3).
extension RouteBuilder {
    mutating func addFeedRoutes() {
        let store = context.store

        read("/api/tables/{t}/changes") { request in
            let id = request.tableID
            let since = try request.queryInteger("since", default: 0)
            let feed = try store.changes(id, since: since)
            guard let changes = feed.changes else {
                var response = HTTPResponse.problem(
                    status: 410, type: "history-gone",
                    detail: "the changes after version \(since) are no longer kept (the table is at version \(feed.current)); reload the table")
                response.headers.set("ETag", ETag.string(for: feed.current))
                return response
            }
            return Respond.json(version: feed.current) { writer in
                writer.beginObject()
                writer.key("version"); writer.integer(feed.current)
                writer.key("changes")
                writer.beginArray()
                for change in changes { writer.rawValue(change.json) }
                writer.endArray()
                writer.endObject()
            }
        }

        read("/api/tables/{t}/events") { request in
            let id = request.tableID
            let since: Int?
            if let lastEventID = request.headers["Last-Event-ID"], let version = Int(lastEventID.trimmingSpaces()) {
                since = version
            } else if request.query["since"] != nil {
                since = try request.queryInteger("since", default: 0)
            } else {
                since = nil
            }
            let stream = EventStream()
            try store.subscribe(id, since: since, stream: stream)
            var headers = HTTPHeaders()
            headers.set("Content-Type", "text/event-stream; charset=utf-8")
            headers.set("Cache-Control", "no-cache")
            headers.set("X-Accel-Buffering", "no")
            return HTTPResponse(status: 200, headers: headers, body: .stream(stream))
        }
    }
}
