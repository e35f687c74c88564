import Foundation

/// The change feed and the live stream, then the table's end: listChanges,
/// streamEvents (an update, then `deleted` when deleteTable deletes the table).
@MainActor
struct FeedChecks {
    let client: Client
    let checks: Checks

    func run() async {
        let t = Fixture.id
        var version = 0
        await checks.step("listChanges") {
            let feed = try await client.listChanges(path: .init(t: t), query: .init(since: "0")).ok.body.json
            version = feed.version
            checks.expect(feed.changes.map(\.version) == Array(1...max(1, version)), "listChanges: every version")
            let closed = try await client.listChanges(path: .init(t: t), query: .init(since: "1", until: 3)).ok.body
                .json
            checks.expect(closed.changes.map(\.version) == [2, 3], "listChanges: since 1 until 3")
            let gone = try await client.listChanges(path: .init(t: t), query: .init(since: String(version + 5))).gone
            checks.expect(try gone.body.application_problem_plus_json._type == "history-gone", "listChanges: 410")
        }
        await checks.step("streamEvents unknown") {
            _ = try await client.streamEvents(path: .init(t: "no-such-table")).notFound
        }
        await checks.step("streamEvents") {
            // URLSession on Linux hands over a body once it ends: the stream ends
            // when its table is deleted, after the update made while it is open.
            let since = version
            async let stream = client.streamEvents(path: .init(t: t), query: .init(since: String(since)))
            try await waitForOpenStream()
            _ = try await client.patchTable(path: .init(t: t), body: .json(.init(title: "Streamed"))).ok
            _ = try await client.deleteTable(path: .init(t: t)).noContent
            let events = try await text(stream.ok.body.text_event_hyphen_stream)
            checks.expect(events.hasPrefix(": connected"), "streamEvents: connected first")
            // An event's id is the version, after the server's life where it has one (docs/API.md, "Caching").
            let updateIDs = events.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map {
                versionOfTag(String($0.dropFirst(4)))
            }
            checks.expect(
                events.contains("event: update\nid: ") && updateIDs.contains(since + 1), "streamEvents: the update")
            checks.expect(events.contains("event: deleted"), "streamEvents: deleted at the end")
        }
        await checks.step("deleteTable") {
            let problem = try await client.getTable(path: .init(t: t)).notFound.body.application_problem_plus_json
            checks.expect(problem.status == 404, "getTable after deleteTable: 404")
            _ = try await client.deleteTable(path: .init(t: t)).notFound
        }
    }

    /// Waits until /metrics counts an open event stream, for at most 10 s.
    private func waitForOpenStream() async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let metrics = try await text(client.metrics().ok.body.plainText)
            let open = metrics.split(separator: "\n").first { $0.hasPrefix("http_event_streams_open ") }
            if let open, let count = Int(open.split(separator: " ").last ?? ""), count > 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        checks.expect(false, "streamEvents: no stream open within 10 s")
    }
}
