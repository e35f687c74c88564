import Foundation
import Synchronization
import TableJournal
import TableModel
import TableServer
import Testing
import WebTableViewClient

/// What a follower handed on, checked as it arrives: each batch update must be
/// valid against the update before it by TableModel's own validation (UIKit's
/// rules) and give the update's table; versions never skip or repeat — or, for
/// a view (`skipsVersions`), never go back: a view skips the changes that left
/// it as it was, and a change of it may come in steps of the same version.
final class UpdateChecker: Sendable {
    private let skipsVersions: Bool

    init(skipsVersions: Bool = false) {
        self.skipsVersions = skipsVersions
    }

    private struct State {
        var last: TableUpdate?
        var problems: [String] = []
        var batches = 0
        var reloads = 0
        /// Batch updates of the same version as the one before: a view's second or third step.
        var laterSteps = 0
    }
    private let state = Mutex(State())

    func check(_ update: TableUpdate) {
        state.withLock { state in
            defer { state.last = update }
            guard let batch = update.batch else {
                state.reloads += 1
                if let last = state.last, update.version < last.version {
                    state.problems.append("a reload went back from \(last.version) to \(update.version)")
                }
                return
            }
            state.batches += 1
            guard var before = state.last?.table else {
                state.problems.append("a batch update before any table")
                return
            }
            guard update.version == before.version + 1 || (skipsVersions && update.version >= before.version) else {
                state.problems.append("version \(update.version) after \(before.version)")
                return
            }
            if update.version == before.version { state.laterSteps += 1 }
            do {
                _ = try before.apply(batch)
            } catch {
                state.problems.append("version \(update.version) is not valid before it: \(error)")
                return
            }
            before.version = update.version
            if before.jsonBytes != update.table.jsonBytes {
                state.problems.append("version \(update.version) does not give the update's table")
            }
        }
    }

    var last: TableUpdate? { state.withLock { $0.last } }
    var problems: [String] { state.withLock { $0.problems } }
    var counts: (batches: Int, reloads: Int) { state.withLock { ($0.batches, $0.reloads) } }
    var laterSteps: Int { state.withLock { $0.laterSteps } }
}

/// Waits until `condition` holds, checking every 10 ms, for at most `seconds`.
func waitFor(seconds: Double, _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(10))
    }
    return true
}

@Suite struct TableFollowerTests {
    /// Three other clients make 10,000 random edits while the follower runs through a
    /// transport that cuts its stream at random moments, with a short history so
    /// that some reconnections get `reset`; halfway the server (under `--journal`)
    /// stops and starts again on the same port. At the end the mirror is the
    /// server's table, byte for byte.
    @Test func followsRandomEditsThroughCutsResetsAndARestart() async throws {
        let journal = temporaryDirectory("follower-journal")
        defer { try? FileManager.default.removeItem(atPath: journal) }
        let configure: (inout ServerOptions) -> Void = { options in
            options.history = 8
            var journalOptions = JournalOptions(directory: journal)
            journalOptions.fsync = .never
            options.journal = journalOptions
        }
        var (server, url) = try startServer(configure: configure)
        let port = url.port ?? 0
        let writerClient = TableClient(
            baseURL: url,
            retry: RetryPolicy(attempts: 20, initialDelay: .milliseconds(20), maxDelay: .milliseconds(200)))
        let cutting = CuttingTransport(cutChance: 0.08)
        let follower = TableFollower(
            client: TableClient(baseURL: url, transport: cutting), table: "t",
            backoff: RetryPolicy(initialDelay: .milliseconds(5), maxDelay: .milliseconds(100)))
        let checker = UpdateChecker()
        let following = Task {
            for try await update in follower.updates() { checker.check(update) }
        }
        #expect(try await waitFor(seconds: 60) { checker.last != nil })

        // 3 writers × 2 halves × 1,667: 10,002 edits sent.
        let editsPerWriter = 1_667
        func runWriters() async throws -> (made: Int, refused: Int) {
            try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for writer in 0..<3 {
                    group.addTask {
                        var editor = RandomEditor(client: writerClient, name: "w\(writer)")
                        for _ in 0..<editsPerWriter { try await editor.edit() }
                        return (editor.made, editor.refused)
                    }
                }
                var total = (made: 0, refused: 0)
                for try await (made, refused) in group {
                    total.made += made
                    total.refused += refused
                }
                return total
            }
        }
        let first = try await runWriters()
        server.shutdown()
        (server, _) = try startServer(port: port, configure: configure)
        defer { server.shutdown() }
        let second = try await runWriters()

        let served = try await writerClient.table("t")
        let caughtUp = try await waitFor(seconds: 30) { (checker.last?.version ?? -1) >= served.version }
        following.cancel()
        #expect(caughtUp, "the follower is at \(checker.last?.version ?? -1), the server at \(served.version)")
        #expect(checker.problems == [])
        #expect(checker.last?.table.jsonBytes == served.jsonBytes)
        let counts = checker.counts
        print(
            "follower: \(first.made + second.made) edits made, \(first.refused + second.refused) refused, "
                + "\(counts.batches) batch updates, \(counts.reloads) reloads, \(cutting.cuts.withLock { $0 }) cuts")
        // Some are refused, made stale by another writer; most are made.
        #expect(first.made + second.made > 5_000)
        #expect(cutting.cuts.withLock { $0 } > 0)
    }

    /// The connection's loss and return are reported, and a deleted table ends following.
    @Test func reportsTheServerGoingAndComingBackAndEndsWhenTheTableIsDeleted() async throws {
        var (server, url) = try startServer()
        let port = url.port ?? 0
        let client = TableClient(baseURL: url)
        let follower = TableFollower(
            client: client, table: "t",
            backoff: RetryPolicy(initialDelay: .milliseconds(5), maxDelay: .milliseconds(50)))
        let seen = Mutex<[String]>([])
        let following = Task {
            do {
                for try await event in follower.events() {
                    let name =
                        switch event {
                        case .update(let update):
                            update.isReload ? "reload \(update.version)" : "update \(update.version)"
                        case .disconnected: "disconnected"
                        case .reconnected: "reconnected"
                        }
                    seen.withLock { $0.append(name) }
                }
                seen.withLock { $0.append("finished") }
            } catch {
                seen.withLock { $0.append("\(error)") }
            }
        }
        #expect(
            try await waitFor(seconds: 60) { seen.withLock { $0 } == ["reload 0"] }, "seen: \(seen.withLock { $0 })")
        _ = try await client.deleteItem("a0", in: "t")
        #expect(
            try await waitFor(seconds: 60) { seen.withLock { $0.last } == "update 1" }, "seen: \(seen.withLock { $0 })")
        server.shutdown()
        #expect(
            try await waitFor(seconds: 60) { seen.withLock { $0.last } == "disconnected" },
            "seen: \(seen.withLock { $0 })")
        (server, _) = try startServer(port: port)
        defer { server.shutdown() }
        // The new server starts again at version 0: the follower's Last-Event-ID is ahead, so it is reset.
        #expect(
            try await waitFor(seconds: 60) { seen.withLock { $0.suffix(2) } == ["reconnected", "reload 0"] },
            "seen: \(seen.withLock { $0 })")
        try await client.deleteTable("t")
        #expect(
            try await waitFor(seconds: 60) { seen.withLock { $0.last } == "tableDeleted" },
            "seen: \(seen.withLock { $0 })")
        following.cancel()
    }

    /// A server without a journal restarted is a new life (docs/API.md,
    /// "Caching"): its version 1 is not the follower's version 1, so the
    /// follower, reconnecting with its version in the old life, is reset and
    /// fetches the new life's table rather than taking it for its own.
    @Test func aFollowerAcrossARestartWithoutJournalTakesTheNewLifesTable() async throws {
        let newLife: (inout ServerOptions) -> Void = { $0.newLifeAtEachStart = true }
        var (server, url) = try startServer(configure: newLife)
        let port = url.port ?? 0
        let client = TableClient(baseURL: url)
        // A reconnection 3 s after the loss: time for the new life to reach the follower's version first.
        let follower = TableFollower(
            client: client, table: "t", backoff: RetryPolicy(initialDelay: .seconds(3), maxDelay: .seconds(3)))
        let seen = Mutex<[String]>([])
        let latest = Mutex<Table?>(nil)
        let following = Task {
            for try await event in follower.events() {
                switch event {
                case .update(let update):
                    latest.withLock { $0 = update.table }
                    seen.withLock {
                        $0.append(update.isReload ? "reload \(update.version)" : "update \(update.version)")
                    }
                case .disconnected: seen.withLock { $0.append("disconnected") }
                case .reconnected: seen.withLock { $0.append("reconnected") }
                }
            }
        }
        defer { following.cancel() }
        #expect(try await waitFor(seconds: 60) { seen.withLock { $0 } == ["reload 0"] })
        _ = try await client.deleteItem("a0", in: "t")
        #expect(try await waitFor(seconds: 60) { seen.withLock { $0.last } == "update 1" })
        server.shutdown()
        #expect(try await waitFor(seconds: 60) { seen.withLock { $0.last } == "disconnected" })
        (server, _) = try startServer(port: port, configure: newLife)
        defer { server.shutdown() }
        // Version 1 of the new life: b0 deleted, a0 there again.
        _ = try await client.deleteItem("b0", in: "t")
        let served = try await client.table("t")
        #expect(served.version == 1)
        #expect(
            try await waitFor(seconds: 60) { latest.withLock { $0?.jsonBytes } == served.jsonBytes },
            "the follower kept the old life's table; seen: \(seen.withLock { $0 })")
        #expect(seen.withLock { $0.last } == "reload 1")
    }
}
