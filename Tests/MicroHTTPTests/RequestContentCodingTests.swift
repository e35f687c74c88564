import MicroHTTPTesting
import Testing

@testable import MicroHTTP

/// Request bodies sent with a `Content-Encoding` (RFC 9110 §8.4): gzip is
/// inflated within the body limit, anything else refused with 415, and the
/// handler never sees a body it would misread (docs/API.md, "Compression").
@Suite(.timeLimit(.minutes(1))) struct RequestContentCodingTests {
    static func router(calls: Shared<[String]>) -> Router {
        var router = Router()
        router.add(.POST, "/echo") { request in
            let text = String(decoding: request.body, as: UTF8.self)
            calls.update { $0.append(text) }
            return .text("\(request.headers["Content-Encoding"] ?? "none") \(text)")
        }
        return router
    }

    static func gzip(_ text: String) throws -> [UInt8] {
        try #require(Compressor.compress(Array(text.utf8), .gzip, effort: .once))
    }

    @Test func aGzipBodyReachesTheHandlerInflated() throws {
        let calls = Shared<[String]>([])
        try withLiveServer(Self.router(calls: calls)) { _, client in
            let connection = try client.connect()
            try connection.sendRequest(
                method: .POST, path: "/echo", headers: ["Content-Encoding": "gzip"], body: try Self.gzip("{\"a\":1}"))
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "none {\"a\":1}")
        }
    }

    @Test(arguments: ["br", "deflate", "gzip, br", "zstd"])
    func aBodyInACodingNotReadIsRefused415(_ coding: String) throws {
        let calls = Shared<[String]>([])
        try withLiveServer(Self.router(calls: calls)) { _, client in
            let connection = try client.connect()
            try connection.sendRequest(
                method: .POST, path: "/echo", headers: ["Content-Encoding": coding], body: Array("{}".utf8))
            let response = try connection.readResponse()
            #expect(response.status == 415)
            #expect(response.headers["Accept-Encoding"] == "gzip")
            #expect(response.text.contains("unsupported-content-encoding"))
            #expect(calls.value.isEmpty)
        }
    }

    @Test func identityIsNoCoding() throws {
        let calls = Shared<[String]>([])
        try withLiveServer(Self.router(calls: calls)) { _, client in
            let connection = try client.connect()
            try connection.sendRequest(
                method: .POST, path: "/echo", headers: ["Content-Encoding": "identity"], body: Array("{}".utf8))
            #expect(try connection.readResponse().text == "none {}")
        }
    }

    @Test func aBodyThatIsNotGzipIsRefused400() throws {
        let calls = Shared<[String]>([])
        try withLiveServer(Self.router(calls: calls)) { _, client in
            let connection = try client.connect()
            var truncated = try Self.gzip(String(repeating: "row ", count: 100))
            truncated.removeLast(5)
            try connection.sendRequest(
                method: .POST, path: "/echo", headers: ["Content-Encoding": "gzip"], body: truncated)
            let response = try connection.readResponse()
            #expect(response.status == 400)
            #expect(response.text.contains("malformed-body"))
            #expect(calls.value.isEmpty)
        }
    }

    /// 10 MB of zeros is about 10 KB of gzip: the limit counts inflated bytes.
    @Test func aBodyThatInflatesPastTheLimitIsRefused413() throws {
        let calls = Shared<[String]>([])
        let bomb = try Self.gzip(String(repeating: "0", count: 10_000_000))
        #expect(bomb.count < 100_000)
        let configuration = HTTPServer.Configuration(maxBodySize: 1 << 20)
        try withLiveServer(Self.router(calls: calls), configuration: configuration) { _, client in
            let connection = try client.connect()
            try connection.sendRequest(method: .POST, path: "/echo", headers: ["Content-Encoding": "gzip"], body: bomb)
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(calls.value.isEmpty)
        }
    }

    @Test func inflationStopsAtTheLimit() throws {
        let body = try Self.gzip(String(repeating: "0", count: 1_000_000))
        #expect(throws: Inflation.Failure.tooLarge) { try Inflation.gunzip(body, limit: 999_999) }
        #expect(try Inflation.gunzip(body, limit: 1_000_000).count == 1_000_000)
    }
}
