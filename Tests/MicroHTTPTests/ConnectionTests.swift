import Dispatch
import Glibc
import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct ConnectionTests {
    static func router() -> Router {
        var router = Router()
        router.add(.GET, "/ping") { _ in .text("pong") }
        router.add(.GET, "/api/tables/{t}") { request in .text(request.parameters["t"] ?? "") }
        return router
    }

    @Test func twoHundredConcurrentRequestsAreAllAnswered() throws {
        try withLiveServer(Self.router()) { server, client in
            let answers = Shared<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for index in 0..<25 {
                    let name = "t\(thread)-\(index)"
                    let text = (try? client.execute(path: "/api/tables/\(name)"))?.text ?? "failed"
                    answers.update { $0.append(text == name ? "ok" : text) }
                }
            }
            #expect(answers.value.count == 200)
            #expect(answers.value.allSatisfy { $0 == "ok" })
            #expect(eventually { server.metrics.count(method: .GET, route: "/api/tables/{t}", status: 200) == 200 })
        }
    }

    @Test func aClientSendingAByteAtATimeDoesNotBlockOthers() throws {
        let configuration = HTTPServer.Configuration(threads: 1)
        try withLiveServer(Self.router(), configuration: configuration) { _, client in
            let slow = try client.connect()
            let request = Array("GET /ping HTTP/1.1\r\nHost: slow\r\nConnection: close\r\n\r\n".utf8)
            for byte in request {
                try slow.send([byte])
                let response = try client.execute(path: "/api/tables/fast")
                #expect(response.text == "fast")
            }
            let answer = try slow.readResponse()
            #expect(answer.text == "pong")
        }
    }

    @Test func anIdleConnectionIsClosedAfterTheTimeout() throws {
        let configuration = HTTPServer.Configuration(connectionTimeout: .seconds(1))
        try withLiveServer(Self.router(), configuration: configuration) { server, client in
            let idle = try client.connect()
            let partial = try client.connect()
            try partial.send("GET /ping HTTP/1.1\r\nHo")
            #expect(idle.waitForClose(timeout: .seconds(10)))
            #expect(partial.waitForClose(timeout: .seconds(10)))
            #expect(eventually { server.metrics.requestsInFlight == 0 })
        }
    }

    @Test func keptAliveConnectionIsClosedAfterTheTimeout() throws {
        let configuration = HTTPServer.Configuration(connectionTimeout: .seconds(1))
        try withLiveServer(Self.router(), configuration: configuration) { _, client in
            let connection = try client.connect()
            try connection.sendRequest(path: "/ping", headers: ["Connection": "keep-alive"])
            #expect(try connection.readResponse().text == "pong")
            #expect(connection.waitForClose(timeout: .seconds(10)))
        }
    }
}
