import Foundation
import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// `GET /api/tables/{t}/events` over a real socket: replay, reset, live updates
/// with their HTML, and the end of the stream when the table is deleted.
@Suite(.timeLimit(.minutes(1))) struct EventStreamAPITests {
    let streams = EventStreams()

    func deleteFirstRow(_ client: TestClient) throws {
        #expect(try client.request(.DELETE, "/api/tables/t/sections/0/rows/0").status == 200)
    }

    /// A client knows the stream is open at once, not after the first event or
    /// the first keep-alive comment 15 s later.
    @Test func saysItIsConnectedAtOnce() throws {
        try withServer(.live) { client in
            let stream = try streams.subscribe(client, "/api/tables/t/events")
            defer { stream.close() }
            #expect(streams.read(stream, until: "\n\n") == streams.opening)
        }
    }

    @Test func replaysFromSinceThenFollowsLive() throws {
        try withServer(.live) { client in
            try deleteFirstRow(client)
            try deleteFirstRow(client)
            let stream = try streams.subscribe(client, "/api/tables/t/events?since=1")
            defer { stream.close() }
            let replay = streams.read(stream, until: "id: 2\n")
            #expect(replay.hasPrefix(streams.opening + "event: update\nid: 2\ndata: {\"version\":2,"))
            #expect(!replay.contains("id: 1\n"))

            let inserted = try client.request(
                .POST, "/api/tables/t/sections/0/rows?animation=top", headers: jsonHeaders,
                body: body(#"{"at": 1, "row": {"id": "new", "text": "<b>New</b>"}}"#))
            #expect(inserted.status == 200)
            let live = streams.read(stream, until: "id: 3\n")
            let data = try #require(live.split(separator: "\n").last { $0.hasPrefix("data: ") }).dropFirst(6)
            let event = try JSONParser().parse(Array(data.utf8))
            #expect(event["batch"]?["animation"]?.string == "top")
            let html = try #require(event["html"]?["rows"]?[0]?["html"]?.string)
            #expect(event["html"]?["rows"]?[0]?["at"] == .array([.integer(0), .integer(1)]))
            #expect(html.contains(#"data-section="0" data-row="1" data-id="new""#))
            #expect(html.contains("&lt;b&gt;New&lt;/b&gt;"))
        }
    }

    @Test func lastEventIDReplaysAndATooOldOneResets() throws {
        try withServer(.live, configure: { $0.history = 2 }) { client in
            for _ in 0..<4 { try deleteFirstRow(client) }
            let resumed = try streams.subscribe(client, "/api/tables/t/events", headers: "Last-Event-ID: 2\r\n")
            #expect(streams.read(resumed, until: "id: 4\n").contains("id: 3\n"))
            resumed.close()

            let stale = try streams.subscribe(client, "/api/tables/t/events", headers: "Last-Event-ID: 1\r\n")
            #expect(
                streams.read(stale, until: "event: reset\ndata: {\"version\":4}\n\n").hasPrefix(
                    streams.opening + "event: reset\n"))
            stale.close()
        }
    }

    @Test func deletingTheTableSendsDeletedAndEndsTheStream() throws {
        try withServer(.live) { client in
            let stream = try streams.subscribe(client, "/api/tables/t/events")
            #expect(try client.request(.DELETE, "/api/tables/t").status == 204)
            #expect(streams.read(stream, until: "event: deleted\n").contains("event: deleted\n"))
            _ = stream.readStream(timeout: .seconds(5)) { _ in false }
            #expect(stream.sawLastChunk)
        }
    }
}
