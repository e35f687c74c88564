import Foundation
import JSON

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's API as typed calls (docs/API.md): reads of tables, sections and
/// rows, and every edit, each answering the change the server published.
///
/// Every edit carries an `Idempotency-Key` made for it and
/// sent again, unchanged, on each of its retries, so the server applies it once
/// however often the answer is lost (docs/API.md, "Idempotency-Key"); `ifMatch`
/// sends `If-Match` with the version named, in the server's life as the client
/// last heard it (`"k3f9a2c1.7"`, as the server's tags name it): a version of a
/// server's earlier life is refused (`412`), never taken for the new life's
/// version of the same number; read again after a `412`. Failures
/// are `TableClientError`s: the server's problem documents typed, or no answer.
///
/// ```swift
/// let client = TableClient(baseURL: URL(string: "https://tables.example")!, token: token)
/// let change = try await client.deleteRow(at: TableIndexPath(0, 3), in: "inbox", animation: .left)
/// ```
public struct TableClient: Sendable {
    /// The server: `https://host[:port]`, with or without a path prefix.
    public let baseURL: URL
    /// Sent as `Authorization: Bearer` with every edit (docs/API.md, "The edit token").
    public let token: String?
    public var retry: RetryPolicy
    public let transport: any HTTPTransport & EventStreamTransport
    /// The server's life its answers' tags name, shared by the client's copies.
    let life = ServerLifeRecord()

    public init(
        baseURL: URL, token: String? = nil, retry: RetryPolicy = RetryPolicy(),
        transport: any HTTPTransport & EventStreamTransport = URLSessionTransport()
    ) {
        self.baseURL = baseURL
        self.token = token
        self.retry = retry
        self.transport = transport
    }

    /// One request of the API, before it is sent.
    struct Call {
        var method: String
        /// From `/api/…`, every segment already safe in a path (ids are `[A-Za-z0-9_-]`).
        var path: String
        var query: [URLQueryItem] = []
        var body: [UInt8]?
        var ifMatch: Int?

        static func edit(
            _ method: String, _ path: String, _ body: [UInt8]? = nil, animation: String? = nil, ifMatch: Int?
        )
            -> Call
        {
            Call(
                method: method, path: path, query: animation.map { [URLQueryItem(name: "animation", value: $0)] } ?? [],
                body: body, ifMatch: ifMatch)
        }
    }

    /// The URL of `path` with `query` on this server.
    func url(_ path: String, query: [URLQueryItem] = []) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + path
        components.queryItems = query.isEmpty ? nil : query
        // URLComponents leaves `+` alone in a query; a server reading forms takes it for a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? baseURL
    }

    /// Sends `call`, retrying as `retry` says, and answers a 2xx answer; every
    /// other status is thrown as its problem. Edits are the calls with a method
    /// other than GET and HEAD: each gets its `Idempotency-Key` here, once,
    /// and is sent again, with its key, after any `503` (`outcome-unknown`
    /// too), a `409` `idempotency-key-in-use` or a connection that failed or
    /// was cut: the server answers a repeat with the first answer and does not
    /// make it again (docs/CLIENT.md).
    func perform(_ call: Call) async throws(TableClientError) -> HTTPAnswer {
        let isEdit = call.method != "GET" && call.method != "HEAD"
        var request = URLRequest(url: url(call.path, query: call.query))
        request.httpMethod = call.method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body = call.body {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let version = call.ifMatch { request.setValue(life.tag(version), forHTTPHeaderField: "If-Match") }
        if isEdit { request.setValue(UUID().uuidString, forHTTPHeaderField: "Idempotency-Key") }
        if isEdit, let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        var attempt = 1
        while true {
            let answer: HTTPAnswer
            do {
                answer = try await transport.send(request)
                // A table's answers (a 412 too) tag its version; other tags are hashes.
                if call.path.hasPrefix("/api/tables/"), let tag = answer.header("ETag") { life.record(tag: tag) }
            } catch {
                guard attempt < retry.attempts, !Task.isCancelled else {
                    throw .unreachable(String(describing: error))
                }
                try await pause(retry.delay(after: attempt))
                attempt += 1
                continue
            }
            if (200..<300).contains(answer.status) { return answer }
            let retried =
                answer.status == 503
                || (isEdit && answer.status == 409 && TableProblem(answer).kind == .other("idempotency-key-in-use"))
            if retried, attempt < retry.attempts {
                try await pause(retry.delay(after: attempt, retryAfter: answer.retryAfter))
                attempt += 1
                continue
            }
            throw .problem(TableProblem(answer))
        }
    }

    private func pause(_ delay: Duration) async throws(TableClientError) {
        do {
            try await Task.sleep(for: delay)
        } catch {
            throw .unreachable("cancelled")
        }
    }

    /// The JSON of a 2xx answer.
    func json(_ call: Call) async throws(TableClientError) -> JSONValue {
        let answer = try await perform(call)
        do {
            return try ClientDecoding.parser.parse(answer.body)
        } catch {
            throw .unreadableAnswer("\(call.method) \(call.path): \(error)")
        }
    }

    /// The path of table `id`'s resources.
    static func tablePath(_ id: String) -> String { "/api/tables/\(id)" }
}
