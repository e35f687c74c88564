import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite struct BodyLimitTests {
    static let configuration = HTTPServer.Configuration(maxBodySize: 1_000)

    static func router() -> Router {
        var router = Router()
        router.add(.POST, "/echo") { request in
            HTTPResponse(contentType: "application/octet-stream", bytes: request.body)
        }
        return router
    }

    @Test func bodyAtTheLimitIsAccepted() throws {
        try withTestServer(Self.router(), transport: .live, configuration: Self.configuration) { client in
            let body = [UInt8](repeating: 7, count: 1_000)
            let response = try client.execute(method: .POST, path: "/echo", body: body)
            #expect(response.status == 200)
            #expect(response.body == body)
        }
    }

    @Test func announcedOversizedBodyIsRefusedBeforeItIsSent() throws {
        try withLiveServer(Self.router(), configuration: Self.configuration) { _, client in
            let connection = try client.connect()
            try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.text.contains("\"type\":\"body-too-large\""))
            #expect(response.text.contains("\"title\":\"Content Too Large\""))
        }
    }

    @Test func announcedOversizedBodyWithExpectContinueGetsNoContinue() throws {
        try withLiveServer(Self.router(), configuration: Self.configuration) { _, client in
            let connection = try client.connect()
            try connection.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n")
            let head = try connection.readHead()
            #expect(head.status == 413)
        }
    }

    @Test func chunkedBodyOverTheLimitIsRefused() throws {
        try withLiveServer(Self.router(), configuration: Self.configuration) { server, client in
            let connection = try client.connect()
            try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let piece = String(repeating: "a", count: 400)
            for _ in 0..<3 {
                try connection.send("190\r\n\(piece)\r\n")
            }
            try connection.send("0\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.text.contains("body-too-large"))
            #expect(eventually { server.metrics.requestsInFlight == 0 })
        }
    }

    @Test func chunkedBodyFarOverTheLimitIsCutOff() throws {
        try withLiveServer(Self.router(), configuration: Self.configuration) { server, client in
            let connection = try client.connect()
            try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let piece = String(repeating: "a", count: 400)
            for _ in 0..<6 {
                try? connection.send("190\r\n\(piece)\r\n")
            }
            #expect(connection.waitForClose())
            #expect(eventually { server.metrics.requestsInFlight == 0 })
        }
    }

    @Test func connectionAbortedMidBodyIsCleanedUp() throws {
        try withLiveServer(Self.router(), configuration: Self.configuration) { server, client in
            for _ in 0..<20 {
                let connection = try client.connect()
                try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 900\r\n\r\n")
                try connection.send([UInt8](repeating: 1, count: 300))
                #expect(eventually { server.metrics.requestsInFlight == 1 })
                connection.close(reset: true)
                #expect(eventually { server.metrics.requestsInFlight == 0 })
            }
            let response = try client.execute(method: .POST, path: "/echo", body: [1, 2, 3])
            #expect(response.body == [1, 2, 3])
        }
    }
}
