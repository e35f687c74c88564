import Foundation
import MicroHTTP
import MicroHTTPTesting
import TableJournal
import TableServer
import TableServerTesting
import Testing

/// A server without a journal starts a new life at each start (docs/API.md,
/// "Caching"): its versions start again, so every tag and event id carries the
/// life, and one of an earlier life is never taken as current. A restart is a
/// new server instance over the same tables; with a journal, tags and ids stay
/// bare versions.
@Suite(.timeLimit(.minutes(1))) struct ServerLifeTests {
    /// Each start a new life, as `webtableview serve` without `--journal` starts.
    let newLife: (inout ServerOptions) -> Void = { $0.newLifeAtEachStart = true }

    /// The table's ETag after one edit, in a fresh server's life.
    func tagAfterOneEdit(_ client: TestClient) throws -> String {
        #expect(try client.request(.DELETE, "/api/tables/t/sections/0/rows/0").status == 200)
        let tag = try #require(try client.request(.GET, "/api/tables/t").headers["ETag"])
        return tag
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func tagsNameTheLifeAndNoConditionalGETAnswers304AcrossLives(_ transport: TestTransport) throws {
        var first = ""
        try withServer(transport, configure: newLife) { client in
            first = try tagAfterOneEdit(client)
            #expect(first.hasPrefix("\"") && first.hasSuffix(".1\""))
            #expect(try client.request(.GET, "/api/tables/t", headers: ["If-None-Match": first]).status == 304)
            // JSON bodies keep their integer versions.
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 1)
        }
        try withServer(transport, configure: newLife) { client in
            let second = try tagAfterOneEdit(client)
            #expect(second != first, "two lives named version 1 alike")
            // Version 1 of the earlier life, and a bare "1" (which no life sends), name other content.
            #expect(try client.request(.GET, "/api/tables/t", headers: ["If-None-Match": first]).status == 200)
            #expect(try client.request(.GET, "/api/tables/t", headers: ["If-None-Match": "\"1\""]).status == 200)
            #expect(try client.request(.GET, "/tables/t", headers: ["If-None-Match": first]).status == 200)
            #expect(try client.request(.GET, "/api/tables/t", headers: ["If-None-Match": second]).status == 304)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func ifMatchOfAnEarlierLifeNeverMatches(_ transport: TestTransport) throws {
        var first = ""
        try withServer(transport, configure: newLife) { client in first = try tagAfterOneEdit(client) }
        try withServer(transport, configure: newLife) { client in
            let second = try tagAfterOneEdit(client)
            let stale = try client.request(
                .DELETE, "/api/tables/t/sections/0/rows/0", headers: ["If-Match": first])
            #expect(stale.status == 412)
            #expect(stale.headers["ETag"] == second)
            // A bare tag names no life: refused too, though this life is at that version, naming the current tag.
            let bare = try client.request(.DELETE, "/api/tables/t/sections/0/rows/0", headers: ["If-Match": "\"1\""])
            #expect(bare.status == 412)
            #expect(bare.headers["ETag"] == second)
            #expect(
                try bare.json["detail"]?.string
                    == "If-Match \"1\" does not match the table's version \(second): "
                    + "this server's entity tags carry its life, as ETag sends them")
            #expect(
                try stale.json["detail"]?.string == "If-Match \(first) does not match the table's version \(second)")
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 1, "no edit was made")
            let current = try client.request(
                .DELETE, "/api/tables/t/sections/0/rows/0", headers: ["If-Match": second])
            #expect(current.status == 200)
        }
    }

    @Test func lastEventIDAndSinceOfAnEarlierLifeReset() throws {
        var first = ""
        try withServer(.live, configure: newLife) { client in first = try tagAfterOneEdit(client) }
        let firstCursor = String(first.dropFirst().dropLast())
        try withServer(.live, configure: newLife) { client in
            let second = try tagAfterOneEdit(client)
            let secondCursor = String(second.dropFirst().dropLast())
            for headers in ["Last-Event-ID: \(firstCursor)\r\n", ""] {
                let path = "/api/tables/t/events" + (headers.isEmpty ? "?since=\(firstCursor)" : "")
                let stream = try streams.subscribe(client, path, headers: headers)
                defer { stream.close() }
                #expect(
                    streams.read(stream, until: "{\"version\":1}\n\n").contains(
                        "event: reset\ndata: {\"version\":1}\n\n"))
            }
            // The same life's cursor replays from there; its events' ids carry the life.
            let life = secondCursor.prefix { $0 != "." }
            #expect(try client.request(.DELETE, "/api/tables/t/sections/0/rows/0").status == 200)
            let stream = try streams.subscribe(
                client, "/api/tables/t/events", headers: "Last-Event-ID: \(secondCursor)\r\n")
            defer { stream.close() }
            #expect(streams.read(stream, until: "id: \(life).2\n").contains("event: update\nid: \(life).2\n"))
            let changes = try client.request(.GET, "/api/tables/t/changes?since=\(firstCursor)")
            #expect(changes.status == 410)
        }
    }

    @Test func aJournalsVersionsOutliveTheProcessAndStayBare() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("life-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Shut down by the test: a journal's server holds its files and threads until then.
        let server = try makeServer {
            $0.journal = JournalOptions(directory: folder.path)
            $0.newLifeAtEachStart = true
        }
        defer { server.shutdown() }
        let tag = try tagAfterOneEdit(TestClient(router: server.router))
        #expect(tag == "\"1\"")
    }

    let streams = EventStreams()
}
