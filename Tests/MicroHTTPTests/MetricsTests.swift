import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite struct MetricsTests {
    @Test func requestsAreCountedByRouteMethodAndStatus() throws {
        var router = Router()
        router.add(.GET, "/api/tables/{t}") { request in
            request.parameters["t"] == "missing" ? .problem(status: 404, type: "not-found", detail: "no") : .text("ok")
        }
        try withLiveServer(router) { server, client in
            for path in ["/api/tables/a", "/api/tables/b", "/api/tables/missing", "/elsewhere"] {
                _ = try client.execute(path: path)
            }
            _ = try client.execute(method: .DELETE, path: "/api/tables/a")
            let connection = try client.connect()
            try connection.send("BREW /api/tables/a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(try connection.readResponse().status == 405)
            #expect(eventually { server.metrics.totalRequests == 6 && server.metrics.requestsInFlight == 0 })
            let metrics = server.metrics
            #expect(metrics.count(method: .GET, route: "/api/tables/{t}", status: 200) == 2)
            #expect(metrics.count(method: .GET, route: "/api/tables/{t}", status: 404) == 1)
            #expect(metrics.count(method: .DELETE, route: "/api/tables/{t}", status: 405) == 1)
            #expect(metrics.count(method: .GET, route: HTTPMetrics.unmatchedRoute, status: 404) == 1)
            #expect(metrics.count(method: nil, route: "/api/tables/{t}", status: 405) == 1)
            let text = metrics.prometheusText()
            #expect(text.contains("# TYPE http_requests_total counter\n"))
            #expect(text.contains("http_requests_total{method=\"GET\",route=\"/api/tables/{t}\",status=\"200\"} 2\n"))
            #expect(
                text.contains(
                    "http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/tables/{t}\",le=\"+Inf\"} 3\n"))
            #expect(text.contains("http_request_duration_seconds_count{method=\"GET\",route=\"unmatched\"} 1\n"))
            #expect(text.contains("http_requests_total{method=\"other\",route=\"/api/tables/{t}\",status=\"405\"} 1\n"))
            #expect(!text.contains("BREW"))
            #expect(text.contains("http_event_streams_open 0\n"))
        }
    }
}
