import MicroHTTP
import TableAccess
import TableServer
import TableServerTesting
import Testing

/// Under a policy, an answer that depends on who asked is marked so that no
/// shared cache hands one reader's rows to another (docs/ACCESS.md, "Caches").
@Suite struct AccessCacheHeaderTests {
    static let readPaths = [
        "/api/tables", "/", "/api/tables/t", "/api/tables/t/sections/0/rows", "/api/tables/t/items/a0",
        "/tables/t", "/api/tables/t/changes", "/api/tables/t/events",
    ]

    func varies(_ response: HTTPResponse) -> Bool {
        response.headers.values(for: "Vary").contains("Authorization, Cookie")
    }

    @Test func anAnswerToARequestWithATokenIsNeverStored() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try makeServer(policy: #"{"anonymous": "read"}"#, verifier: verifier)
        // A token not verified yet: its answer is given later, and marked too.
        let token = try await keys.token(sub: "someone")
        for path in Self.readPaths {
            let response = await answer(server.router, .GET, path, headers: ["Authorization": "Bearer \(token)"])
            #expect(response.status == 200, "\(path)")
            #expect(varies(response), "\(path)")
            #expect(response.headers["Cache-Control"] == "no-store", "\(path)")
        }
        let tag = await answer(server.router, .GET, "/api/tables/t").headers["ETag"] ?? ""
        let revalidated = await answer(
            server.router, .GET, "/api/tables/t", headers: ["Authorization": "Bearer \(token)", "If-None-Match": tag])
        #expect(revalidated.status == 304)
        #expect(varies(revalidated))
        #expect(revalidated.headers["Cache-Control"] == "no-store")
    }

    @Test func anAnswerWithoutACredentialIsPrivateAndVaries() async throws {
        let server = try makeServer(policy: #"{"anonymous": "read"}"#, verifier: try await AccessKeys().verifier())
        for path in Self.readPaths {
            let response = await answer(server.router, .GET, path)
            #expect(response.status == 200, "\(path)")
            #expect(varies(response), "\(path)")
            #expect(response.headers["Cache-Control"]?.hasPrefix("private") == true, "\(path)")
        }
        let refused = await answer(server.router, .GET, "/api/tables/t", headers: ["Authorization": "Basic eA=="])
        #expect(refused.status == 401)
        #expect(varies(refused))
        #expect(refused.headers["Cache-Control"] == "no-store")
        // What needs no right is the same for everyone, as before.
        let health = await answer(server.router, .GET, "/healthz")
        #expect(!varies(health))
    }

    @Test func withoutAPolicyAnswersAreAsBefore() async throws {
        let server = try makeServer()
        for path in Self.readPaths {
            let response = await answer(server.router, .GET, path)
            #expect(!varies(response), "\(path)")
            #expect(response.headers["Cache-Control"]?.contains("private") != true, "\(path)")
        }
    }
}
