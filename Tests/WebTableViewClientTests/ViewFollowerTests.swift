import Foundation
import TableModel
import Testing
import WebTableViewClient

@Suite struct ViewFollowerTests {
    /// Views that random edits change in every way a view changes: all rows
    /// resorted; rows found by a word, grouped by their section; rows selected by
    /// a filter, each text its own group section (so sections come and go, and
    /// some changes come in two or three steps).
    static let views: [[String: String]] = [
        ["sort": "-text"],
        ["q": "w", "sort": "id", "group": "section"],
        ["filter[text][prefix]": "w", "group": "text"],
    ]

    /// One follower a view while three other clients make random edits to the
    /// table. Every update is valid against the one before (TableModel's batch
    /// validation, UIKit's rules), and at the end each mirror is, byte for
    /// byte, the view the server serves and the view TableModel derives from
    /// the server's table.
    @Test func aViewFollowerAgreesWithTheViewRecomputedFromTheTable() async throws {
        let (server, url) = try startServer()
        defer { server.shutdown() }
        let client = TableClient(baseURL: url)
        let followers = Self.views.map { parameters in
            let query = parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            return (
                query: query,
                follower: TableFollower(
                    client: client, table: "t", query: query,
                    backoff: RetryPolicy(initialDelay: .milliseconds(5), maxDelay: .milliseconds(100))),
                checker: UpdateChecker(skipsVersions: true)
            )
        }
        let following = followers.map { view in
            Task {
                for try await update in view.follower.updates() { view.checker.check(update) }
            }
        }
        defer { following.forEach { $0.cancel() } }
        for view in followers { #expect(try await waitFor(seconds: 60) { view.checker.last != nil }) }

        let made = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<3 {
                group.addTask {
                    var editor = RandomEditor(client: client, name: "w\(writer)")
                    for _ in 0..<80 { try await editor.edit() }
                    return editor.made
                }
            }
            return try await group.reduce(0, +)
        }
        // A last edit that every view shows, so each follower's version is the table's.
        let last = try await client.insertItems([Row(id: "w-end", text: "w end")], .end(section: nil), in: "t")
        let served = try await client.table("t")
        #expect(served.version == last.version)

        for (index, view) in followers.enumerated() {
            let caughtUp = try await waitFor(seconds: 30) { (view.checker.last?.version ?? -1) >= served.version }
            #expect(caughtUp, "view \(index) stopped at \(view.checker.last?.version ?? -1) of \(served.version)")
            #expect(view.checker.problems == [], "view \(index)")
            let mirror = view.checker.last?.table
            let derived = try TableQuery(parameters: Self.views[index]).view(of: served)
            #expect(mirror?.jsonBytes == derived.jsonBytes, "view \(index) differs from the view of the table")
            let servedView = try await client.table("t", query: view.query)
            #expect(mirror?.jsonBytes == servedView.jsonBytes, "view \(index) differs from the served view")
            let counts = view.checker.counts
            print(
                "view \(index): \(counts.batches) batch updates (\(view.checker.laterSteps) a later step), "
                    + "\(counts.reloads) reloads")
            #expect(counts.batches > 20, "view \(index)")
        }
        #expect(made > 100)
        #expect(followers.map(\.checker.laterSteps).reduce(0, +) > 0, "no view change came in steps")
    }
}
