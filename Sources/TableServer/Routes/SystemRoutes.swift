import MicroHTTP
import TableModel

/// Liveness, Prometheus metrics, the OpenAPI document, the static files
/// (under their plain names and under their versioned folder) and the site's icon.
extension RouteBuilder {
    mutating func addSystemRoutes(files: StaticFiles) {
        let store = context.store
        let metrics = context.metrics

        // Health, readiness and metrics describe this moment of this process: never stored.
        // Readiness, unlike liveness, says whether edits can be taken: a load
        // balancer sends edits elsewhere while this replica cannot reach the
        // database (reads still work here).
        let readiness = context.readiness
        router.add(.GET, "/readyz") { _ in
            var response =
                readiness()
                ? Respond.json(Array("{\"status\":\"ready\"}\n".utf8))
                : Respond.json(
                    Array("{\"status\":\"not ready\",\"detail\":\"the database is out of reach\"}\n".utf8), status: 503)
            if response.status == 503 { response.headers.set("Retry-After", "\(TableServerError.retryAfterSeconds)") }
            response.headers.set("Cache-Control", Respond.neverStore)
            return response
        }

        router.add(.GET, "/healthz") { _ in
            var response = Respond.json(Array("{\"status\":\"ok\"}\n".utf8))
            response.headers.set("Cache-Control", Respond.neverStore)
            return response
        }

        router.add(.GET, "/metrics") { _ in
            var text = metrics.prometheusText() + ProcessMetrics.current().prometheusText()
            let tables = store.tables()
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

                """
            var headers = HTTPHeaders()
            headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            headers.set("Cache-Control", Respond.neverStore)
            return HTTPResponse(status: 200, headers: headers, body: .bytes(Array(text.utf8)))
        }

        router.add(.GET, "/api/openapi.json") { request in
            Respond.taggedByContent(Respond.json(OpenAPIDocument.bytes), for: request)
        }

        router.add(.GET, "/public/{path...}") { request in
            files.response(for: request.parameters["path"] ?? "", request: request)
        }
        // The same files under a name that changes with their contents, which
        // the pages link: cached for a year (docs/API.md, Caching).
        router.add(.GET, "/assets/{version}/{path...}") { request in
            files.response(
                for: request.parameters["path"] ?? "", version: request.parameters["version"] ?? "", request: request)
        }
        // Browsers ask for /favicon.ico on a site's first page whether or not the page names an icon.
        router.add(.GET, "/favicon.ico") { request in
            files.response(for: "favicon.ico", request: request)
        }
    }
}
