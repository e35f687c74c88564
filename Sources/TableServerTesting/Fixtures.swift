import Foundation
import JSON
import Logging
import MicroHTTP
import MicroHTTPTesting
import TableModel
import TableServer

/// The package's top folder, found from this file's path.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A table small enough to reason about: section 0 `A0…A6`, section 1 `B0 B1`.
public func fixtureTable(id: String = "t") -> Table {
    Table(
        id: id, title: "Fixture", style: .plain,
        sections: [
            Section(id: "a", header: "A", rows: (0..<7).map { Row(id: "a\($0)", text: "A\($0)") }),
            Section(id: "b", header: "B", footer: "End", rows: (0..<2).map { Row(id: "b\($0)", text: "B\($0)") }),
        ])
}

/// A server over the fixture table with the real templates and public files.
/// `logger`: where it logs; nothing below critical by default.
public func makeServer(
    tables: [Table] = [fixtureTable()],
    logger given: Logger? = nil,
    configure: (inout ServerOptions) -> Void = { _ in }
) throws -> WebTableViewServer {
    var options = ServerOptions()
    options.port = 0
    options.templatesDirectory = packageRoot.appendingPathComponent("Templates").path
    options.publicDirectory = packageRoot.appendingPathComponent("Public").path
    // Versions named bare, as with a journal; ServerLifeTests starts each server as a new life.
    options.newLifeAtEachStart = false
    configure(&options)
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    return try WebTableViewServer(options: options, tables: tables, logger: given ?? logger)
}

/// Runs `body` against a fresh server, in-process or over a real socket.
public func withServer(
    _ transport: TestTransport,
    tables: [Table] = [fixtureTable()],
    configure: (inout ServerOptions) -> Void = { _ in },
    _ body: (TestClient) throws -> Void
) throws {
    let server = try makeServer(tables: tables, configure: configure)
    switch transport {
    case .inProcess:
        try body(TestClient(router: server.router))
    case .live:
        let port = try server.start()
        defer { server.shutdown() }
        try body(TestClient(port: port))
    }
}

extension TestResponse {
    /// The body parsed as JSON.
    public var json: JSONValue {
        get throws { try JSONParser().parse(body) }
    }
}

extension JSONValue {
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    public var int: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}

/// JSON text as a request body.
public func body(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The `Content-Type` of a JSON request body.
public let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]

/// A figure of `/metrics` (a counter or gauge without labels), nil where it is missing.
public func metric(_ client: TestClient, _ name: String) throws -> Int? {
    let text = try client.request(.GET, "/metrics").text
    let line = text.split(separator: "\n").first { $0.hasPrefix("\(name) ") }
    return line.flatMap { Int($0.dropFirst(name.count + 1)) }
}

/// The answer of `router`, waited for without holding a thread when it is
/// given later (a new token verified in a task, a read waiting for a version); an event stream is closed.
public func answer(
    _ router: Router, _ method: HTTPMethod, _ path: String, query: [String: String] = [:],
    headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
) async -> HTTPResponse {
    var response = router.respond(
        to: HTTPRequest(method: method, path: path, query: query, headers: headers, body: body))
    if let deferral = response.deferral {
        response = await withCheckedContinuation { continuation in
            deferral.onCompletion { continuation.resume(returning: $0) }
        }
    }
    if case .stream(let stream) = response.body { stream.close() }
    return response
}

/// The bytes of a response's body held in memory (problem documents, lists).
public func bytes(of response: HTTPResponse) -> [UInt8] {
    if case .bytes(let bytes) = response.body { bytes } else { [] }
}
