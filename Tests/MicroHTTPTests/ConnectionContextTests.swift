import MicroHTTP
import MicroHTTPTesting
import Testing

/// A connection's requests share one ``RequestContext`` (made when the
/// connection opens), and the header fields the server reads itself are found
/// in one pass over the request's fields: nothing of one request may reach the
/// next, and a field counts whatever the case of its name.
@Suite struct ConnectionContextTests {
    /// `/echo` answers the method, the body and the query of the request,
    /// `/other` its name;
    /// `/items/{i}` a reusable answer, counting the handler's calls.
    private static func router(calls: Shared<Int>, revision: Revision) -> Router {
        var router = Router()
        router.add(.POST, "/echo") { request in
            .text("POST \(String(decoding: request.body, as: UTF8.self)) \(request.query["q"] ?? "-")")
        }
        router.add(.GET, "/echo") { request in
            .text("GET \(String(decoding: request.body, as: UTF8.self)) \(request.query["q"] ?? "-")")
        }
        router.add(.GET, "/other") { _ in .text("other") }
        router.add(.GET, "/items/{i}") { request in
            calls.update { $0 += 1 }
            return HTTPResponse.text("item \(request.parameters["i"] ?? "")").reusable(
                while: revision, at: revision.current)
        }
        return router
    }

    private static let keepAlive: HTTPHeaders = ["Connection": "keep-alive"]

    @Test func nothingOfARequestReachesTheNextOnTheSameConnection() throws {
        let configuration = HTTPServer.Configuration(port: 0, threads: 1)
        try withLiveServer(Self.router(calls: Shared(0), revision: Revision()), configuration: configuration) {
            server, client in
            let connection = try client.connect()
            try connection.sendRequest(
                method: .POST, path: "/echo?q=1", headers: Self.keepAlive, body: Array("body".utf8))
            #expect(try connection.readResponse().text == "POST body 1")
            try connection.sendRequest(path: "/echo", headers: Self.keepAlive)
            #expect(try connection.readResponse().text == "GET  -")
            try connection.sendRequest(path: "/other", headers: Self.keepAlive)
            #expect(try connection.readResponse().text == "other")
            try connection.sendRequest(method: .POST, path: "/echo", headers: Self.keepAlive, body: Array("next".utf8))
            #expect(try connection.readResponse().text == "POST next -")
            try connection.sendRequest(path: "/echo?q=2", headers: Self.keepAlive)
            #expect(try connection.readResponse().text == "GET  2")
            // Refused on the headers' arrival, which ends the connection.
            try connection.send("BREW /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n")
            #expect(try connection.readResponse().status == 405)
            #expect(eventually { server.metrics.requestsInFlight == 0 })
            let metrics = server.metrics
            #expect(metrics.count(method: .POST, route: "/echo", status: 200) == 2)
            #expect(metrics.count(method: .GET, route: "/echo", status: 200) == 2)
        }
    }

    @Test func fieldsCountWhateverTheCaseOfTheirNames() throws {
        let calls = Shared(0)
        var configuration = HTTPServer.Configuration(port: 0, threads: 1)
        configuration.originPolicy.allowedHosts = ["127.0.0.1"]
        try withLiveServer(Self.router(calls: calls, revision: Revision()), configuration: configuration) { _, client in
            let connection = try client.connect()
            func send(_ fields: String) throws -> TestResponse {
                try connection.send("GET /items/1 HTTP/1.1\r\n\(fields)Connection: keep-alive\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(try send("host: 127.0.0.1\r\n").status == 200)
            #expect(calls.value == 1)
            #expect(try send("HOST: 127.0.0.1:8080\r\n").status == 200)
            #expect(calls.value == 1)
            // Each of these makes the request one a kept answer does not fit.
            for field in ["if-none-match: \"x\"", "IF-NONE-MATCH: \"x\"", "min-version: 1", "origin: http://a.example"]
            {
                #expect(try send("Host: 127.0.0.1\r\n\(field)\r\n").status == 200)
            }
            #expect(calls.value == 5)
            #expect(try send("host: rebind.example\r\n").status == 421)
        }
    }

    @Test func contentLengthAndTransferEncodingAreFoundWhateverTheirCase() throws {
        try withLiveServer(Self.router(calls: Shared(0), revision: Revision())) { _, client in
            let both = try client.connect()
            try both.send(
                "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-length: 4\r\ntransfer-encoding: chunked\r\n\r\n")
            #expect(try both.readResponse().status == 400)
            let lower = try client.connect()
            try lower.send(
                "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nconnection: close\r\ncontent-length: 3\r\n\r\nabc")
            #expect(try lower.readResponse().text == "POST abc -")
        }
    }
}
