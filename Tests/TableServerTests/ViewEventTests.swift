import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// A view's event stream (`…/events?q=…`, docs/API.md, "Views") over a real
/// socket: one update per change of the view, none for a change that leaves
/// it as it was, `Last-Event-ID` continuing without a gap, `reset` with the view.
@Suite struct ViewEventTests {
    let stream = EventStreams()

    func rename(_ client: TestClient, _ id: String, _ text: String) throws {
        let response = try client.request(
            .PUT, "/api/tables/c/items/\(id)", headers: jsonHeaders, body: body(#"{"text": "\#(text)"}"#))
        #expect(response.status == 200)
    }

    /// The data of the last event in `text`, parsed.
    func lastData(_ text: String) throws -> JSONValue {
        let data = try #require(text.split(separator: "\n").last { $0.hasPrefix("data: ") }).dropFirst(6)
        return try JSONParser().parse(Array(data.utf8))
    }

    @Test func aViewIsSentItsOwnBatchesAndNothingWhenUnchanged() throws {
        try withServer(.live, tables: [citiesTable()]) { client in
            let view = try stream.subscribe(client, "/api/tables/c/events?q=san")
            defer { view.close() }
            _ = stream.read(view, until: "\n\n")
            try rename(client, "ny", "New York City")  // version 1: not in the view
            try rename(client, "sea", "Santa Cruz")  // version 2: enters the view
            let text = stream.read(view, until: "id: 2\n")
            #expect(!text.contains("id: 1\n"))
            let update = try lastData(text)
            #expect(update["version"]?.int == 2)
            #expect(update["since"]?.int == 0)
            let step = try #require(update["steps"]?[0])
            #expect(step["batch"]?["insertRows"]?[0]?["at"] == .array([.integer(0), .integer(1)]))
            #expect(step["batch"]?["insertRows"]?[0]?["row"]?["id"]?.string == "sea")
            #expect(step["html"]?["rows"]?[0]?["html"]?.string?.contains("Santa Cruz") == true)

            try rename(client, "sf", "Frisco")  // version 3: leaves the view
            let left = try lastData(stream.read(view, until: "id: 3\n"))
            #expect(left["since"]?.int == 2)
            #expect(left["steps"]?[0]?["batch"]?["deleteRows"] == .array([.array([.integer(0), .integer(0)])]))
        }
    }

    @Test func aRowRenamedInASortedViewMovesThenIsDrawnWhereItLanded() throws {
        try withServer(.live, tables: [citiesTable()]) { client in
            let view = try stream.subscribe(client, "/api/tables/c/events?sort=text")
            defer { view.close() }
            _ = stream.read(view, until: "\n\n")
            // West, by text: Los Angeles, San Francisco, Seattle.
            try rename(client, "la", "Tacoma")
            let update = try lastData(stream.read(view, until: "id: 1\n"))
            let move = try #require(update["steps"]?[0]?["batch"]?["moveRows"]?[0])
            #expect(move["from"] == .array([.integer(0), .integer(0)]))
            #expect(move["to"] == .array([.integer(0), .integer(2)]))
            let reload = try #require(update["steps"]?[1])
            #expect(reload["batch"]?["reloadRows"]?[0]?["at"] == .array([.integer(0), .integer(2)]))
            #expect(reload["html"]?["rows"]?[0]?["at"] == .array([.integer(0), .integer(2)]))
            #expect(reload["html"]?["rows"]?[0]?["html"]?.string?.contains("Tacoma") == true)
        }
    }

    @Test func reconnectingContinuesOrResetsWithTheWholeView() throws {
        try withServer(.live, tables: [citiesTable()]) { client in
            let first = try stream.subscribe(client, "/api/tables/c/events?q=san")
            defer { first.close() }
            _ = stream.read(first, until: "\n\n")
            try rename(client, "ny", "New York City")
            try rename(client, "sea", "Santa Cruz")
            _ = stream.read(first, until: "id: 2\n")

            // Last saw version 1 (or 0): the update to 2 applies to what it holds.
            for seen in [0, 1] {
                let resumed = try stream.subscribe(
                    client, "/api/tables/c/events?q=san", headers: "Last-Event-ID: \(seen)\r\n")
                let text = stream.read(resumed, until: "id: 2\n")
                #expect(text.contains("event: update\nid: 2\n"))
                resumed.close()
            }
            // A view nobody followed at version 1: the whole view, as it is now.
            let fresh = try stream.subscribe(client, "/api/tables/c/events?q=york", headers: "Last-Event-ID: 1\r\n")
            defer { fresh.close() }
            let reset = try lastData(stream.read(fresh, until: "event: reset\nid: 2\n"))
            #expect(reset["version"]?.int == 2)
            #expect(reset["table"]?["sections"]?[0]?["rows"]?[0]?["id"]?.string == "ny")
            // Ahead of the table (it restarted without a journal, say), on an open view too: reset.
            let ahead = try stream.subscribe(client, "/api/tables/c/events?q=san", headers: "Last-Event-ID: 9\r\n")
            defer { ahead.close() }
            let again = try lastData(stream.read(ahead, until: "event: reset\nid: 2\n"))
            #expect(again["version"]?.int == 2)
        }
    }

    @Test func deletingTheTableEndsAViewsStream() throws {
        try withServer(.live, tables: [citiesTable()]) { client in
            let view = try stream.subscribe(client, "/api/tables/c/events?group=detail")
            _ = stream.read(view, until: "\n\n")
            #expect(try client.request(.DELETE, "/api/tables/c").status == 204)
            #expect(stream.read(view, until: "event: deleted\n").contains("event: deleted\n"))
            _ = view.readStream(timeout: .seconds(5)) { _ in false }
            #expect(view.sawLastChunk)
        }
    }

    /// A view goes as soon as the last client following it closes its
    /// connection, with nothing edited, nothing sent: the server notices the
    /// clients leaving, not a write failing later (docs/perf-history/live-views-and-search.md,
    /// "Views whose streams closed are still followed").
    @Test func aViewIsDroppedWhenItsLastClientLeavesWithNothingSent() throws {
        try withServer(.live, tables: [citiesTable()]) { client in
            let queries = ["q=san", "sort=text", "group=detail", "filter[detail]=CA"]
            let clients = try queries.map { query in
                let view = try stream.subscribe(client, "/api/tables/c/events?\(query)")
                _ = stream.read(view, until: "\n\n")
                return view
            }
            let second = try stream.subscribe(client, "/api/tables/c/events?q=san")
            _ = stream.read(second, until: "\n\n")
            #expect(try metric(client, "webtableview_views_open") == 4)
            #expect(try metric(client, "http_event_streams_open") == 5)

            // The first view keeps its other client.
            clients[0].close()
            #expect(try eventually(timeout: .seconds(5)) { try metric(client, "http_event_streams_open") == 4 })
            #expect(try metric(client, "webtableview_views_open") == 4)

            second.close()
            clients.forEach { $0.close() }
            #expect(try eventually(timeout: .seconds(5)) { try metric(client, "webtableview_views_open") == 0 })
            #expect(try eventually(timeout: .seconds(5)) { try metric(client, "http_event_streams_open") == 0 })
            try rename(client, "sea", "Santa Cruz")
            #expect(try metric(client, "webtableview_views_open") == 0)
        }
    }

    @Test func badViewParametersAre400BeforeTheStreamOpens() throws {
        try withServer(.inProcess, tables: [citiesTable()]) { client in
            let response = try client.request(.GET, "/api/tables/c/events?sort=nothing")
            #expect(response.status == 400)
        }
    }
}
