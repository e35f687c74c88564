import MicroHTTP
import ProcessMetrics
import TableModel

/// Liveness, Prometheus metrics, the OpenAPI document, the static files
/// (under their plain names and under their versioned folder) and the site's icon.
///
/// Health, readiness and metrics describe this moment of this process: never stored.
struct SystemRoutes: RouteCollection {
    let context: RouteContext
    let files: StaticFiles

    func register(on routes: inout RouteBuilder) {
        routes.route(.GET, "/readyz", readyz)
        routes.route(.GET, "/healthz", healthz)
        routes.route(.GET, "/metrics", prometheusMetrics)
        routes.route(.GET, "/api/openapi.json", openAPIDocument)
        routes.route(.GET, "/public/{path...}", publicFile)
        routes.route(.GET, "/assets/{version}/{path...}", versionedFile)
        routes.route(.GET, "/favicon.ico", favicon)
    }

    /// Readiness, unlike liveness, says whether edits can be taken: a load
    /// balancer sends edits elsewhere while this replica cannot reach the
    /// database (reads still work here).
    func readyz(_ request: HTTPRequest) -> HTTPResponse {
        var response =
            context.readiness()
            ? Respond.json(Array("{\"status\":\"ready\"}\n".utf8))
            : Respond.json(
                Array("{\"status\":\"not ready\",\"detail\":\"the database is out of reach\"}\n".utf8), status: 503)
        if response.status == 503 { response.headers.set("Retry-After", "\(TableServerError.retryAfterSeconds)") }
        response.headers.set("Cache-Control", Respond.neverStore)
        return response
    }

    func healthz(_ request: HTTPRequest) -> HTTPResponse {
        var response = Respond.json(Array("{\"status\":\"ok\"}\n".utf8))
        response.headers.set("Cache-Control", Respond.neverStore)
        return response
    }

    func prometheusMetrics(_ request: HTTPRequest) -> HTTPResponse {
        var text = context.metrics.prometheusText() + ProcessMetrics.current().prometheusText()
        let tables = store.tables()
        let heavy = context.heavyWork.counts
        text += """
            # HELP webtableview_tables Tables held by the server.
            # TYPE webtableview_tables gauge
            webtableview_tables \(tables.count)
            # HELP webtableview_sections Sections in all tables.
            # TYPE webtableview_sections gauge
            webtableview_sections \(tables.reduce(0) { $0 + $1.sections.count })
            # HELP webtableview_rows Rows in all tables.
            # TYPE webtableview_rows gauge
            webtableview_rows \(tables.reduce(0) { $0 + $1.rowCount })
            # HELP webtableview_views_open Views of tables that event streams follow now.
            # TYPE webtableview_views_open gauge
            webtableview_views_open \(store.openViewCount())
            # HELP webtableview_heavy_running Heavy requests (imports, snapshots, large bodies, views of large tables) running.
            # TYPE webtableview_heavy_running gauge
            webtableview_heavy_running \(heavy.running)
            # HELP webtableview_heavy_waiting Heavy requests waiting for a heavy thread.
            # TYPE webtableview_heavy_waiting gauge
            webtableview_heavy_waiting \(heavy.waiting)
            # HELP webtableview_heavy_refused_total Heavy requests refused 503 heavy-work-busy, the queue being full.
            # TYPE webtableview_heavy_refused_total counter
            webtableview_heavy_refused_total \(heavy.refused)
            # HELP webtableview_views_held Views of tables held in memory now: those followed, and those whose streams left, until freed.
            # TYPE webtableview_views_held gauge
            webtableview_views_held \(store.heldViewCount())

            """
        if let leaders = store.leaders {
            text += """
                # HELP webtableview_edits_waiting Edits waiting for, or in, their table's commit to the log.
                # TYPE webtableview_edits_waiting gauge
                webtableview_edits_waiting \(leaders.waiting)
                # HELP webtableview_edits_in_groups Edits validated and queued in their table's group commit, or in the commit in flight.
                # TYPE webtableview_edits_in_groups gauge
                webtableview_edits_in_groups \(store.editsInGroups.load(ordering: .relaxed))

                """
        }
        var headers = HTTPHeaders()
        headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
        headers.set("Cache-Control", Respond.neverStore)
        return HTTPResponse(status: 200, headers: headers, body: .bytes(Array(text.utf8)))
    }

    func openAPIDocument(_ request: HTTPRequest) -> HTTPResponse {
        Respond.taggedByContent(Respond.json(OpenAPIDocument.bytes), for: request)
    }

    func publicFile(_ request: HTTPRequest) -> HTTPResponse {
        files.response(for: request.parameters["path"] ?? "", request: request)
    }

    /// The same files under a name that changes with their contents, which
    /// the pages link: cached for a year (docs/API.md, Caching).
    func versionedFile(_ request: HTTPRequest) -> HTTPResponse {
        files.response(
            for: request.parameters["path"] ?? "", version: request.parameters["version"] ?? "", request: request)
    }

    /// Browsers ask for /favicon.ico on a site's first page whether or not the page names an icon.
    func favicon(_ request: HTTPRequest) -> HTTPResponse {
        files.response(for: "favicon.ico", request: request)
    }
}
