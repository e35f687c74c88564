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
            #expect(text.contains("http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/tables/{t}\",le=\"+Inf\"} 3\n"))
            #expect(text.contains("http_request_duration_seconds_count{method=\"GET\",route=\"unmatched\"} 1\n"))
            #expect(text.contains("http_requests_total{method=\"other\",route=\"/api/tables/{t}\",status=\"405\"} 1\n"))
            #expect(!text.contains("BREW"))
            #expect(text.contains("http_event_streams_open 0\n"))
        }
    }
}

@Suite struct ProcessMetricsTests {
    /// The heap is the whole process's, and other suites allocate and free
    /// meanwhile (a million-row table is some 200 MB): a trial that one of
    /// them spoils is tried again, and the figures must hold in one trial.
    @Test func heapInUseCountsWhatIsHeldAndNotWhatWasFreed() throws {
        var trials: [(before: Int, holding: Int, resident: Int, after: Int)] = []
        for _ in 0..<5 {
            let before = try #require(ProcessMetrics.current().heapInUseBytes)
            var held: [UInt8]? = [UInt8](repeating: 1, count: 256 << 20)
            let holding = ProcessMetrics.current()
            #expect(held?.last == 1)
            held = nil
            let after = try #require(ProcessMetrics.current().heapInUseBytes)
            let trial = (
                before: before, holding: try #require(holding.heapInUseBytes), resident: holding.residentMemoryBytes,
                after: after
            )
            trials.append(trial)
            if trial.holding - trial.before >= 200 << 20, trial.resident >= 256 << 20, trial.after < trial.before + (56 << 20) {
                return
            }
        }
        Issue.record("no trial saw 256 MiB held and then freed (before, holding, resident, after): \(trials)")
    }

    @Test func exposesTheStandardProcessFigures() throws {
        let metrics = ProcessMetrics.current()
        #expect(metrics.virtualMemoryBytes >= metrics.residentMemoryBytes)
        #expect(metrics.cpuSeconds > 0)
        let open = try #require(metrics.openFileDescriptors)
        #expect(open >= 3 && open <= metrics.maxFileDescriptors)
        let text = metrics.prometheusText()
        for name in [
            "process_resident_memory_bytes", "process_virtual_memory_bytes", "process_cpu_seconds_total",
            "process_max_fds", "process_open_fds", "process_heap_in_use_bytes",
        ] {
            #expect(text.contains("# TYPE \(name) "))
            #expect(text.contains("\n\(name) "))
        }
    }
}
