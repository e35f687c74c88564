import Dispatch
import Glibc
import MicroHTTP
import Synchronization

/// Sends requests to a router, in-process or over a socket (see ``TestTransport``).
public struct TestClient: Sendable {
    private enum Target {
        case router(Router)
        case socket(host: String, port: Int)
    }

    private let target: Target
    /// The live server started by ``withTestServer(_:transport:configuration:_:)``, if any.
    public let server: HTTPServer?

    /// A client calling `router` in-process.
    public init(router: Router) {
        target = .router(router)
        server = nil
    }

    /// A client of a server already listening on `host` and `port`.
    public init(port: Int, host: String = "127.0.0.1") {
        target = .socket(host: host, port: port)
        server = nil
    }

    /// A client of `server`, which is listening on 127.0.0.1.
    init(server: HTTPServer) {
        target = .socket(host: "127.0.0.1", port: server.port)
        self.server = server
    }

    public var transport: TestTransport {
        if case .router = target { .inProcess } else { .live }
    }

    /// The port of a live client.
    public var port: Int? {
        if case .socket(_, let port) = target { port } else { nil }
    }

    /// Sends one request and reads its whole response.
    ///
    /// - Parameters:
    ///   - path: the request target, percent-encoded, optionally with a query.
    ///   - headers: sent as given; `Host`, `Connection: close` and
    ///     `Content-Length` are added when missing.
    public func execute(
        method: HTTPMethod = .GET,
        path: String,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) throws -> TestResponse {
        if case .router(let router) = target {
            return Self.respond(router, method: method, requestTarget: path, headers: headers, body: body)
        }
        let connection = try connect()
        try connection.sendRequest(method: method, path: path, headers: headers, body: body)
        return try connection.readResponse(for: method)
    }

    /// ``execute(method:path:headers:body:)`` with unlabelled method and path.
    public func request(
        _ method: HTTPMethod,
        _ path: String,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) throws -> TestResponse {
        try execute(method: method, path: path, headers: headers, body: body)
    }

    /// A fresh connection to the live server, for tests that write and read
    /// raw bytes (slow clients, event streams).
    public func connect() throws -> RawConnection {
        guard case .socket(let host, let port) = target else {
            throw TestClientError.notLive
        }
        return try RawConnection(host: host, port: port)
    }

    private static func respond(
        _ router: Router,
        method: HTTPMethod,
        requestTarget: String,
        headers: HTTPHeaders,
        body: [UInt8]
    ) -> TestResponse {
        let (path, query) = RequestTarget.parse(requestTarget)
        var response = router.respond(
            to: HTTPRequest(method: method, path: path, query: query, headers: headers, body: body))
        if let deferral = response.deferral {
            response = waitForAnswer(deferral)
        }
        guard method != .HEAD else {
            return TestResponse(status: response.status, headers: response.headers, body: [])
        }
        var responseHeaders = response.headers
        let bytes: [UInt8]
        switch response.body {
        case .bytes(let contents):
            bytes = contents
        case .file(let path, _):
            bytes = contents(ofFile: path)
        case .stream(let stream):
            bytes = stream.takeQueuedBytes()
            stream.close()
        case .chunks(let producer):
            bytes = producer.collect()
        }
        switch response.body {
        case .bytes, .file:
            responseHeaders.set("Content-Length", String(bytes.count))
        case .stream, .chunks:
            responseHeaders.set("Transfer-Encoding", "chunked")
        }
        return TestResponse(status: response.status, headers: responseHeaders, body: bytes)
    }

    /// The answer `deferral` is completed with, waited for.
    private static func waitForAnswer(_ deferral: DeferredResponse) -> HTTPResponse {
        let answer = Mutex<HTTPResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        deferral.onCompletion { response in
            answer.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        guard let response = answer.withLock({ $0 }) else { preconditionFailure("completed without an answer") }
        return response
    }

    private static func contents(ofFile path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return []
        }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while case let count = read(descriptor, &chunk, chunk.count), count > 0 {
            contents += chunk[..<count]
        }
        return contents
    }
}
