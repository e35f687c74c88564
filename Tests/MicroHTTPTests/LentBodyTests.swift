import MicroHTTP
import MicroHTTPTesting
import Testing

/// Bodies from 16 KiB up are sent from the array's own buffer rather than a copy
/// (`HTTPServer.lending`); smaller ones are copied. Both arrive whole, on one
/// connection and on several, also after the handler's array is gone.
@Suite struct LentBodyTests {
    static func body(count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31 &+ seed) % 251) }
    }

    static func router() -> Router {
        var router = Router()
        router.add(.GET, "/body") { request in
            let count = Int(request.query["count"] ?? "") ?? 0
            let seed = Int(request.query["seed"] ?? "") ?? 0
            return HTTPResponse(
                headers: ["Content-Type": "application/octet-stream"], body: .bytes(body(count: count, seed: seed)))
        }
        return router
    }

    @Test(arguments: [0, 1, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 400_000])
    func bodiesArriveWhole(count: Int) throws {
        try withTestServer(Self.router(), transport: .live) { client in
            let connection = try client.connect()
            for seed in 0..<3 {
                try connection.sendRequest(
                    path: "/body?count=\(count)&seed=\(seed)", headers: ["Connection": "keep-alive"])
                let response = try connection.readResponse()
                #expect(response.status == 200)
                #expect(response.headers["Content-Length"] == String(count))
                #expect(response.body == Self.body(count: count, seed: seed))
            }
        }
    }

    @Test func lentBodiesOnSeveralConnectionsStayApart() throws {
        try withTestServer(Self.router(), transport: .live) { client in
            let connections = try (0..<4).map { _ in try client.connect() }
            for (seed, connection) in connections.enumerated() {
                try connection.sendRequest(path: "/body?count=200000&seed=\(seed)")
            }
            for (seed, connection) in connections.enumerated() {
                #expect(try connection.readResponse().body == Self.body(count: 200_000, seed: seed))
            }
        }
    }
}
