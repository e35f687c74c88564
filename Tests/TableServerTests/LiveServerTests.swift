import Foundation
import JSON
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import TableModel
import TableServerTesting
import Testing

/// The server over real sockets: limits, concurrency, slow clients, and many
/// writers with live subscribers.
@Suite(.timeLimit(.minutes(1))) struct LiveServerTests {
    @Test func aBodyOverTheLimitIs413AndChangesNothing() throws {
        try withServer(.live, configure: { $0.maxBodySize = 1024 }) { client in
            let rows = (0..<100).map { #"{"text": "row \#($0)"}"# }.joined(separator: ",")
            let response = try client.request(
                .POST, "/api/tables/t/sections/0/rows", headers: jsonHeaders, body: body(#"{"rows": [\#(rows)]}"#))
            #expect(response.status == 413)
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
            #expect(try client.request(.GET, "/healthz").status == 200)
        }
    }

    @Test func answersTwoHundredConcurrentRequests() throws {
        try withServer(.live) { client in
            let statuses = Mutex([Int]())
            DispatchQueue.concurrentPerform(iterations: 200) { index in
                let path = index.isMultiple(of: 2) ? "/api/tables/t/sections/0/rows/\(index % 7)" : "/tables/t"
                let status = (try? client.request(.GET, path).status) ?? -1
                statuses.withLock { $0.append(status) }
            }
            let all = statuses.withLock { $0 }
            #expect(all.count == 200)
            #expect(all.allSatisfy { $0 == 200 })
        }
    }

    @Test func aSlowClientDoesNotBlockOthers() throws {
        try withServer(.live) { client in
            let slow = try client.connect()
            defer { slow.close() }
            try slow.send("GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            for _ in 0..<20 {
                #expect(try client.request(.GET, "/api/tables/t/sections").status == 200)
            }
            try slow.send("yes\r\n\r\n")
            #expect(try slow.readResponse().status == 200)
        }
    }

    /// Fifty writers edit one table at once while three subscribers follow it:
    /// versions are gap-free, the feed replays to the table exactly, and every
    /// subscriber sees every change once, in order.
    @Test func fiftyConcurrentWritersAndLiveSubscribers() throws {
        let writers = 50, batchesPerWriter = 4
        let total = writers * batchesPerWriter
        try withServer(.live) { client in
            let subscribers = try (0..<3).map { _ in try client.connect() }
            for subscriber in subscribers {
                try subscriber.send("GET /api/tables/t/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                _ = try subscriber.readHead()
            }

            let failures = Mutex([String]())
            DispatchQueue.concurrentPerform(iterations: writers) { writer in
                for step in 0..<batchesPerWriter {
                    let batch = Self.writerBatch(writer: writer, step: step)
                    let response = try? client.request(
                        .POST, "/api/tables/t/batch", headers: jsonHeaders, body: body(batch))
                    if response?.status != 200 {
                        failures.withLock {
                            $0.append("writer \(writer) step \(step): \(response?.text ?? "no answer")")
                        }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])

            let feed = try client.request(.GET, "/api/tables/t/changes?since=0").json
            let changes = feed["changes"]?.array ?? []
            #expect(feed["version"]?.int == total)
            #expect(changes.compactMap { $0["version"]?.int } == Array(1...total))

            var replayed = fixtureTable()
            for change in changes {
                let batch = try ModelDecoder.batch(from: try #require(change["batch"]))
                _ = try replayed.apply(batch)
            }
            var served = try ModelDecoder.table(from: try client.request(.GET, "/api/tables/t").json)
            served.version = replayed.version
            #expect(served == replayed)

            for subscriber in subscribers {
                let stream = subscriber.readStream(timeout: .seconds(20)) { bytes in
                    String(decoding: bytes, as: UTF8.self).contains("id: \(total)\n")
                }
                let ids = String(decoding: stream, as: UTF8.self).split(separator: "\n")
                    .filter { $0.hasPrefix("id: ") }.compactMap { Int($0.dropFirst(4)) }
                #expect(ids == Array(1...total))
                subscriber.close()
            }
        }
    }

    /// A batch that is valid whatever the other writers did before it: section 0
    /// never holds fewer than its 7 rows, since a writer deletes only after it inserted.
    static func writerBatch(writer: Int, step: Int) -> String {
        let id = "w\(writer)"
        switch step {
        case 0:
            return
                #"{"insertRows": [{"at": [0, \#(writer % 8)], "row": {"id": "\#(id)", "text": "\#(id)"}}], "reloadRows": [{"at": [1, 0], "row": {"text": "B0 by \#(id)"}}]}"#
        case 1:
            return #"{"moveRows": [{"from": [0, \#(writer % 7)], "to": [1, 0]}], "animation": "left"}"#
        case 2:
            return
                #"{"moveRows": [{"from": [1, 0], "to": [0, \#((writer * 3) % 7)]}], "insertSections": [{"at": 2, "section": {"rows": []}}]}"#
        default:
            return #"{"deleteRows": [[0, \#(writer % 7)]], "deleteSections": [2]}"#
        }
    }
}
