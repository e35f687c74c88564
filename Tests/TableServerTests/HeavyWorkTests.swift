import Dispatch
import Foundation
import JSON
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import TableModel
import TableServerTesting
import Testing

@testable import TableServer

/// Heavy requests — imports, snapshot PUTs, large bodies, views of large
/// tables — run on a bounded queue of their own (docs/RELIABILITY.md, "Heavy
/// work"): `/healthz`, reads and small edits are answered while it is busy,
/// and a heavy request beyond its bound is refused 503 with `Retry-After`.
@Suite(.timeLimit(.minutes(1))) struct HeavyWorkTests {
    /// A table of `rows` rows in one section, ids `r0…`, texts `Row 0…`.
    static func largeTable(id: String = "big", rows: Int = RouteWeight.largeTable) -> Table {
        Table(id: id, sections: [Section(rows: (0..<rows).map { Row(id: "r\($0)", text: "Row \($0)") })])
    }

    static let csvHeaders: HTTPHeaders = ["Content-Type": "text/csv"]

    /// Holds every heavy thread of `server` until `release` is signalled,
    /// once each has taken its job.
    static func occupy(_ server: WebTableViewServer, release: DispatchSemaphore) {
        let threads = server.heavyWork.limits.threads
        for _ in 0..<threads {
            _ = server.heavyWork.run {
                release.wait()
                return HTTPResponse(status: 204)
            }
        }
        #expect(eventually { server.heavyWork.counts.running == threads })
    }

    @Test func healthAndSmallRequestsAreAnsweredWhileHeavyOnesWaitAndOneMoreIsRefused() throws {
        let server = try makeServer(tables: [fixtureTable()]) { options in
            options.heavyThreads = 1
            options.heavyQueue = 2
        }
        let port = try server.start()
        defer { server.shutdown() }
        let client = TestClient(port: port)
        let release = DispatchSemaphore(value: 0)
        Self.occupy(server, release: release)

        // Two imports wait for the heavy thread, their connections suspended.
        let answers = Mutex([Int]())
        let group = DispatchGroup()
        for index in 0..<2 {
            DispatchQueue.global().async(group: group) {
                let status = try? client.request(
                    .POST, "/api/tables?table-id=c\(index)", headers: Self.csvHeaders, body: body("text\r\nx\r\n")
                ).status
                answers.withLock { $0.append(status ?? -1) }
            }
        }
        #expect(eventually { server.heavyWork.counts.waiting == 2 })

        #expect(try client.request(.GET, "/healthz").status == 200)
        #expect(try client.request(.GET, "/api/tables/t/sections/0/rows/1").status == 200)
        let edit = try client.request(
            .POST, "/api/tables/t/sections/0/rows", headers: jsonHeaders, body: body(#"{"rows": [{"text": "x"}]}"#))
        #expect(edit.status == 200)

        let refused = try client.request(
            .POST, "/api/tables?table-id=c9", headers: Self.csvHeaders, body: body("text\r\nx\r\n"))
        #expect(refused.status == 503)
        #expect(refused.headers["Retry-After"] == "1")
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(try refused.json["type"]?.string == "heavy-work-busy")
        #expect(try refused.json["status"]?.int == 503)
        let metrics = try client.request(.GET, "/metrics").text
        #expect(metrics.contains("webtableview_heavy_running 1\n"))
        #expect(metrics.contains("webtableview_heavy_waiting 2\n"))
        #expect(metrics.contains("webtableview_heavy_refused_total 1\n"))

        release.signal()
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(answers.withLock { $0 } == [201, 201])
        #expect(try client.request(.GET, "/api/tables/c9").status == 404, "the refused import made nothing")
        #expect(try client.request(.GET, "/api/tables/c0").status == 200)
    }

    /// With every heavy thread held and no room to wait, what is heavy is
    /// refused at once and what is not is answered.
    @Test func whatIsHeavyIsQueuedAndWhatIsNotIsAnsweredAtOnce() throws {
        let server = try makeServer(tables: [fixtureTable(), Self.largeTable()]) { options in
            options.heavyThreads = 1
            options.heavyQueue = 0
        }
        let client = TestClient(router: server.router)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        Self.occupy(server, release: release)

        let inserts = (0..<6_000).map { #"{"at": [0, 0], "row": {"text": "row \#($0)"}}"# }
        let largeBatch = #"{"insertRows": ["# + inserts.joined(separator: ",") + "]}"
        let heavy: [(HTTPMethod, String, HTTPHeaders, String)] = [
            (.GET, "/api/tables/big/sections/0/rows?q=row", [:], ""),
            (.GET, "/api/tables/big?sort=-text", [:], ""),
            (.GET, "/tables/big?q=row", [:], ""),
            (.PUT, "/api/tables/t", jsonHeaders, #"{"id": "t", "sections": []}"#),
            (.POST, "/api/tables?table-id=c", Self.csvHeaders, "text\r\nx\r\n"),
            (.POST, "/api/tables?table-id=j", jsonHeaders, #"[{"text": "x"}]"#),
            (.POST, "/api/tables/t/batch", jsonHeaders, largeBatch),
        ]
        for (method, path, headers, text) in heavy {
            let response = try client.request(method, path, headers: headers, body: body(text))
            #expect(response.status == 503, "\(method) \(path)")
            #expect(try response.json["type"]?.string == "heavy-work-busy", "\(method) \(path)")
        }
        let light: [(HTTPMethod, String, HTTPHeaders, String)] = [
            (.GET, "/healthz", [:], ""),
            (.GET, "/api/tables/big/sections/0/rows/5", [:], ""),
            (.GET, "/api/tables/big/sections/0/rows?limit=3", [:], ""),
            (.GET, "/api/tables/t/sections/0/rows?q=a", [:], ""),
            (.POST, "/api/tables/t/batch", jsonHeaders, #"{"insertRows": [{"at": [0, 0], "row": {"text": "x"}}]}"#),
            (.POST, "/api/tables", jsonHeaders, #"{"id": "small", "sections": []}"#),
        ]
        for (method, path, headers, text) in light {
            let response = try client.request(method, path, headers: headers, body: body(text))
            #expect([200, 201].contains(response.status), "\(method) \(path): \(response.text)")
        }
        #expect(server.heavyWork.counts.refused == heavy.count)
    }

    /// A view kept at the table's version costs a lookup: its later pages are
    /// not queued.
    @Test func aKeptViewIsNotHeavy() throws {
        let server = try makeServer(tables: [Self.largeTable()]) { options in
            options.heavyThreads = 1
            options.heavyQueue = 1
        }
        let client = TestClient(router: server.router)
        let first = try client.request(.GET, "/api/tables/big/sections/0/rows?sort=-text&limit=2")
        #expect(first.status == 200)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        Self.occupy(server, release: release)
        _ = server.heavyWork.run { HTTPResponse(status: 204) }  // the one place to wait
        let next = try client.request(.GET, "/api/tables/big/sections/0/rows?sort=-text&offset=2&limit=2")
        #expect(next.status == 200)
        #expect(try next.json["rows"]?.array?.count == 2)
    }
}
