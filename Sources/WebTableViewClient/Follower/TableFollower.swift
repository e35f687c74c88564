import Foundation
import TableModel

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a follower reports: each update, and the connection going and coming back.
public enum FollowEvent: Sendable {
    /// The next update of the mirror.
    case update(TableUpdate)
    /// The event stream is gone (the reason given); the follower reconnects with back-off.
    case disconnected(String)
    /// The event stream is back after a `disconnected`.
    case reconnected
}

/// Why following ended: the table is gone, or the server refused to serve it.
public enum FollowError: Error, Sendable, Equatable {
    /// The table was deleted (the stream's `deleted` event).
    case tableDeleted
    /// The server answered the table or its stream with this problem (a `404`, a `400` query…).
    case refused(TableProblem)
}

/// A local mirror of one table, or one view of it, following its event stream
/// (docs/API.md, "The change feed and the live stream"; docs/CLIENT.md).
///
/// It fetches the table, then reads `GET …/events` from that version on. Each
/// change is applied to the mirror with TableModel's own batch code and handed
/// on as a `TableUpdate`, in version order, each exactly once. When the stream
/// ends or fails it reconnects with `Last-Event-ID` (the mirror's version, in
/// the server's life: a server restarted without its journal, whose versions
/// start again, answers `reset`; docs/API.md, "Caching") after
/// a doubling, jittered delay, so the server replays what was missed; when the
/// server sends `reset` (what was missed is no longer kept), or a change does not
/// follow the mirror's version, it fetches the table again and hands on a
/// `reloadData` update (a view's `reset` carries the view, taken as it is).
/// A view's change may be two or three updates of one version (`TableUpdate`).
/// Following stops when the task reading it is cancelled.
///
/// ```swift
/// for try await update in TableFollower(client: client, table: "inbox").updates() {
///     dataSource = update.table
///     tableView.apply(update)
/// }
/// ```
public struct TableFollower: Sendable {
    public let client: TableClient
    public let tableID: String
    /// Passed as it is to the table and its stream: a view's `q`, `filter[…]`, `sort`, `group`.
    public let query: [URLQueryItem]
    /// The reconnection delays (its `attempts` are not used: a follower never gives up).
    public var backoff: RetryPolicy

    public init(
        client: TableClient, table: String, query: [URLQueryItem] = [],
        backoff: RetryPolicy = RetryPolicy(initialDelay: .milliseconds(250), maxDelay: .seconds(15))
    ) {
        self.client = client
        self.tableID = table
        self.query = query
        self.backoff = backoff
    }

    /// Every update, the first a `reloadData` of the table as fetched.
    public func updates() -> AsyncThrowingStream<TableUpdate, any Error> {
        stream { event in
            if case .update(let update) = event { return update }
            return nil
        }
    }

    /// Every update, and each loss and return of the connection.
    public func events() -> AsyncThrowingStream<FollowEvent, any Error> {
        stream { $0 }
    }

    /// Follows in a task of its own for as long as the stream is read, handing on
    /// what `pick` takes of each event.
    private func stream<Element: Sendable>(
        _ pick: @escaping @Sendable (FollowEvent) -> Element?
    ) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await run { event in
                        if let element = pick(event) { continuation.yield(element) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Follows until cancelled (returns) or until the table is gone (throws `FollowError`).
    func run(_ report: @Sendable (FollowEvent) -> Void) async throws(FollowError) {
        var mirror: TableMirror?
        var failures = 0
        // Refetches in a row for a change the mirror could not follow, with no
        // update applied between them: waited for as failures are, so that a
        // stream that keeps sending such changes is not fetched from in a loop.
        var faults = 0
        var lostReason: String?
        // Whether the table was ever there: a `404` after that means it was deleted.
        var hasFetched = false
        // The server's life the mirror's version is of (nil: versions that outlive the server).
        var life: String?
        while !Task.isCancelled {
            do {
                if mirror == nil {
                    let (table, tableLife) = try await client.tableInLife(tableID, query: query)
                    life = tableLife
                    mirror = TableMirror(table)
                    hasFetched = true
                    report(.update(TableUpdate(version: table.version, batch: nil, table: table)))
                }
                guard var current = mirror else { continue }
                defer { mirror = current }
                try await stream(into: &current, life: &life) {
                    failures = 0
                    if lostReason != nil {
                        lostReason = nil
                        report(.reconnected)
                    }
                } report: {
                    faults = 0
                    report($0)
                }
            } catch StreamEnd.reset {
                mirror = nil
            } catch StreamEnd.fault {
                mirror = nil
                faults += 1
                if faults > 1 { try? await Task.sleep(for: backoff.delay(after: faults - 1)) }
            } catch StreamEnd.deleted {
                throw .tableDeleted
            } catch {
                if let problem = Self.finalProblem(error) {
                    // Deleted between a `reset` and the stream's next connection:
                    // the stream that would have said `deleted` finds nothing.
                    if problem.kind == .notFound && hasFetched { throw .tableDeleted }
                    throw .refused(problem)
                }
                if Task.isCancelled { return }
                failures += 1
                if lostReason == nil {
                    let reason = Self.reason(error)
                    lostReason = reason
                    report(.disconnected(reason))
                }
                try? await Task.sleep(for: backoff.delay(after: failures))
            }
        }
    }

    /// How one connection of the stream ended, when it did not fail.
    private enum StreamEnd: Error {
        /// The server's `reset`: what was missed is no longer kept.
        case reset
        /// A change the mirror cannot read or follow.
        case fault
        case deleted
        case closed
    }

    /// Reads one connection of the stream into `mirror` until it ends; `connected`
    /// runs once the server has answered (its first bytes).
    private func stream(
        into mirror: inout TableMirror, life: inout String?, connected: () -> Void, report: (FollowEvent) -> Void
    ) async throws {
        var request = URLRequest(url: client.url(TableClient.tablePath(tableID) + "/events", query: query))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        let lastEventID = life.map { "\($0).\(mirror.version)" } ?? String(mirror.version)
        request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID")
        // The server comments every 15 s while idle: a minute of silence is a dead connection.
        request.timeoutInterval = 60
        var parser = ServerSentEventParser()
        var answered = false
        for try await piece in client.transport.stream(request) {
            if !answered {
                answered = true
                connected()
            }
            for event in parser.feed(piece) {
                if let id = event.id { life = TableClient.life(ofTag: id) }
                switch event.name {
                case "update", "press":
                    switch mirror.follow(try Self.change(event.data)) {
                    case .applied(let updates): for update in updates { report(.update(update)) }
                    case .seen: break
                    case .lost: throw StreamEnd.fault
                    }
                case "reset":
                    // A view's reset carries the whole view; a table's only its version.
                    guard let view = Self.resetView(event.data) else { throw StreamEnd.reset }
                    mirror = TableMirror(view)
                    report(.update(TableUpdate(version: view.version, batch: nil, table: view)))
                case "deleted": throw StreamEnd.deleted
                default: break
                }
            }
        }
        throw StreamEnd.closed
    }

    /// An `update`'s data: a table's change, or a view's (`{"version", "since",
    /// "steps"}`). A change the mirror cannot read is a change it cannot follow.
    private static func change(_ data: String) throws(StreamEnd) -> FollowedChange {
        guard let json = try? ClientDecoding.parser.parse(Array(data.utf8)) else { throw .fault }
        if case .object(let object) = json, object["steps"] != nil {
            guard let change = try? ClientDecoding.viewChange(json) else { throw .fault }
            return .view(change)
        }
        guard let change = try? ClientDecoding.change(json) else { throw .fault }
        return .table(change)
    }

    /// The view a view's `reset` carries (`{"version", "table"}`); nil for a table's.
    private static func resetView(_ data: String) -> Table? {
        guard case .object(let object)? = try? ClientDecoding.parser.parse(Array(data.utf8)),
            let table = object["table"]
        else { return nil }
        return try? ClientDecoding.table(table)
    }

    /// The problem that ends following: the table or view is not there, or the
    /// query is refused. A `503`, a cut or a refused connection is retried.
    private static func finalProblem(_ error: any Error) -> TableProblem? {
        let problem: TableProblem
        switch error {
        case TableClientError.problem(let refused): problem = refused
        case let refused as EventStreamRefused: problem = TableProblem(refused.answer)
        default: return nil
        }
        return (400..<500).contains(problem.status) && problem.status != 408 && problem.status != 429 ? problem : nil
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case StreamEnd.closed: "the server closed the stream"
        case let refused as EventStreamRefused: TableProblem(refused.answer).description
        case let error as TableClientError: error.description
        default: error.localizedDescription
        }
    }
}
