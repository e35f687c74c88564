import JSON
import MicroHTTP
import MicroHTTPTesting
import TableAccess
import TableServer
import TableServerTesting
import Testing

/// Kept answers under a policy (docs/ACCESS.md, "Cost"): a read of a whole
/// table made for one requester is sent again without routing only to
/// requesters with the same right on it and a credential of the same kind;
/// never to one refused, bound to rows, or holding an expired token.
@Suite(.timeLimit(.minutes(1))) struct KeptAnswerAccessTests {
    let rows = "/api/tables/t/sections/0/rows"

    func texts(_ response: TestResponse) throws -> [String] {
        guard case .array(let rows)? = try response.json["rows"] else { return [] }
        return rows.compactMap { $0["text"]?.string }
    }

    func bearer(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer \(token)"] }

    @Test func aReadKeptForOneRequesterGoesToNoneItWouldNotBeShown() async throws {
        try await withPolicyServer { keys, verifier, client in
            let reader = bearer(try await keys.verifiedToken(by: verifier, sub: "reader"))
            let rowReader = bearer(try await keys.verifiedToken(by: verifier, sub: "A1", roles: ["row-reader"]))
            let admin = bearer(try await keys.verifiedToken(by: verifier, team: "ops"))
            let shortLived = bearer(try await keys.verifiedToken(by: verifier, sub: "reader", expiresIn: 2))

            let all = (0..<7).map { "A\($0)" }
            for _ in 0..<3 {
                let read = try client.request(.GET, rows, headers: reader)
                #expect(read.status == 200)
                #expect(try texts(read) == all)
                #expect(read.headers["Cache-Control"] == "no-store")
            }
            #expect(try client.request(.GET, rows).status == 401)
            #expect(try texts(client.request(.GET, rows, headers: rowReader)) == ["A1"])
            #expect(try texts(client.request(.GET, rows, headers: admin)) == all)
            #expect(try client.request(.GET, rows, headers: ["Authorization": "Bearer not-a-token"]).status == 401)
            #expect(try texts(client.request(.GET, rows, headers: shortLived)) == all)
            #expect(try texts(client.request(.GET, rows, headers: reader)) == all)
            #expect(eventually { (try? client.request(.GET, rows, headers: shortLived).status) == 401 })
            #expect(try texts(client.request(.GET, rows, headers: reader)) == all)
        }
    }

    @Test func aReadKeptForAnonymousRequestsKeepsItsCacheHeadersFromAToken() async throws {
        let policy = #"{"anonymous": "read", "rules": [{"tables": ["t"], "sub": "reader", "right": "read"}]}"#
        try await withPolicyServer(policy: policy) { keys, verifier, client in
            let reader = bearer(try await keys.verifiedToken(by: verifier, sub: "reader"))
            for _ in 0..<2 {
                let anonymous = try client.request(.GET, rows)
                #expect(anonymous.status == 200)
                #expect(anonymous.headers["Cache-Control"]?.hasPrefix("private") == true)
                let withToken = try client.request(.GET, rows, headers: reader)
                #expect(withToken.status == 200)
                #expect(withToken.headers["Cache-Control"] == "no-store")
                #expect(withToken.text == anonymous.text)
            }
        }
    }

    /// A read kept for anonymous requests goes again to requests without a
    /// credential, asking the policy nothing (MicroHTTP's default), and only
    /// while it holds: the table's own `access` changes with its version, so
    /// an admin who takes the anonymous right away is obeyed at once.
    @Test func aReadKeptForAnonymousRequestsEndsWhenTheTablesAccessIsTakenAway() async throws {
        try await withPolicyServer { keys, verifier, client in
            var admin = bearer(try await keys.verifiedToken(by: verifier, team: "ops"))
            admin.set("Content-Type", "application/json")
            let closed =
                #"{"id":"t","access":{"anonymous":"none"},"sections":[{"id":"s","rows":[{"id":"r","text":"R"}]}]}"#
            let opened =
                #"{"id":"t","access":{"anonymous":"read"},"sections":[{"id":"s","rows":[{"id":"r","text":"R"}]}]}"#
            #expect(try client.request(.GET, rows).status == 401)
            #expect(try client.request(.PUT, "/api/tables/t", headers: admin, body: body(opened)).status == 200)
            for _ in 0..<3 {
                let read = try client.request(.GET, rows)
                #expect(read.status == 200)
                #expect(try texts(read) == ["R"])
            }
            #expect(try client.request(.GET, rows, headers: ["Authorization": "Bearer not-a-token"]).status == 401)
            #expect(try client.request(.PUT, "/api/tables/t", headers: admin, body: body(closed)).status == 200)
            #expect(try client.request(.GET, rows).status == 401)
        }
    }
}
