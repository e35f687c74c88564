import AccessTokens
import Foundation
import JSON
import MicroHTTP
import MicroHTTPTesting
import TableAccess
import TableServer
import TableServerTesting
import Testing

/// The policy file, the tokens' cache, and what a policy changes beside the
/// check of each route: lists, kept answers, the edit token (docs/ACCESS.md).
@Suite struct AccessPolicyTests {
    @Test func aPolicyGivesTheHighestRightOfTheRulesThatMatch() async throws {
        let policy = try AccessPolicy(json: testPolicy)
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        func claims(_ token: String) async throws -> BearerClaims { try await verifier.verify(token).get() }
        let editorAndOps = try await claims(keys.token(sub: "x", roles: ["editor"], team: "ops"))
        #expect(policy.right(of: .bearer(editorAndOps), on: "t") == .admin)
        let editor = try await claims(keys.token(sub: "x", roles: ["viewer", "editor"]))
        #expect(policy.right(of: .bearer(editor), on: "t") == .edit)
        #expect(policy.right(of: .bearer(editor), on: "team-blue") == .edit)
        #expect(policy.right(of: .bearer(editor), on: "teams") == nil)
        #expect(policy.right(of: .anonymous, on: "t") == nil)
        #expect(policy.right(of: .editToken, on: "anything") == .admin)
        #expect(!policy.isOperator(.bearer(editor)))
        #expect(try AccessPolicy(json: #"{"anonymous": "read"}"#).right(of: .bearer(editor), on: "x") == .read)
    }

    @Test(arguments: [
        (#"[]"#, "a policy is a JSON object"),
        (#"{"anonymous": "edit"}"#, "\"anonymous\" is \"read\" or \"none\""),
        (#"{"rulez": []}"#, "unknown member \"rulez\""),
        (#"{"rules": [{"tables": [], "sub": "a", "right": "read"}]}"#, "rules[0]: \"tables\" is a non-empty array"),
        (
            #"{"rules": [{"tables": ["t"], "sub": "a", "right": "write"}]}"#,
            "\"right\" is \"read\", \"edit\" or \"admin\""
        ),
        (#"{"rules": [{"tables": ["t"], "sub": "a", "role": "b", "right": "read"}]}"#, "a rule matches one of"),
        (#"{"rules": [{"tables": ["t"], "claim": "team", "right": "read"}]}"#, "a rule matches one of"),
    ])
    func aPolicyFileThatIsNotOneIsRefusedSayingWhy(_ text: String, _ reason: String) {
        #expect {
            try AccessPolicy(json: text)
        } throws: { error in
            (error as? AccessFileError)?.reason.contains(reason) == true
        }
    }

    @Test func keysAreRefusedAtStartUpWhenTheyCannotBeTrusted() async throws {
        await #expect(throws: AccessFileError.self) {
            try await TokenVerifier(secret: "short", jwks: nil, issuer: nil, audience: nil)
        }
        // A JWKS key without alg could be taken for any algorithm: refused.
        let keys = await AccessKeys()
        let withoutAlg = keys.jwks.replacingOccurrences(of: #""alg":"ES256","#, with: "")
        await #expect(throws: AccessFileError.self) {
            try await TokenVerifier(secret: nil, jwks: withoutAlg, issuer: nil, audience: nil)
        }
    }

    @Test func aVerifiedTokenIsKeptUntilItExpiresAndARefusedOneIsNot() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let token = try await keys.token(sub: "reader", expiresIn: 60)
        #expect(verifier.verifiedClaims(of: token) == nil)
        let claims = try await verifier.verify(token).get()
        #expect(claims.subject == "reader")
        #expect(verifier.verifiedClaims(of: token) == claims)
        #expect(verifier.verifiedClaims(of: token, at: Date().addingTimeInterval(61)) == nil)
        #expect(verifier.quickRefusal(of: token) == nil)
        #expect(
            verifier.quickRefusal(of: token, at: Date().addingTimeInterval(61)) == TokenRefusal("the token has expired")
        )
        let expired = try await keys.token(sub: "reader", expiresIn: -1)
        #expect(
            await verifier.verify(expired) == .failure(TokenRefusal("the token's signature or claims are not valid")))
        #expect(verifier.verifiedClaims(of: expired) == nil)
    }

    @Test func listsShowOnlyTheTablesTheRequesterMayRead() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try makeServer(tables: [fixtureTable(), fixtureTable(id: "other")]) { options in
            options.accessPolicy = try! AccessPolicy(json: testPolicy)
            options.tokenVerifier = verifier
        }
        func ids(_ authorization: String?) async throws -> [String] {
            let headers: HTTPHeaders = authorization.map { ["Authorization": $0] } ?? [:]
            let list = try JSONParser().parse(
                bytes(of: await answer(server.router, .GET, "/api/tables", headers: headers)))
            return list["tables"]?.array?.compactMap { $0["id"]?.string } ?? []
        }
        #expect(try await ids(nil) == [])
        #expect(try await ids("Bearer \(keys.token(sub: "reader"))") == ["t"])
        #expect(try await ids("Bearer \(keys.token(team: "ops"))") == ["t", "other"])
        let page = await answer(
            server.router, .GET, "/", headers: ["Authorization": "Bearer \(try await keys.token(sub: "reader"))"])
        let html = String(decoding: bytes(of: page), as: UTF8.self)
        #expect(html.contains("/tables/t\""))
        #expect(!html.contains("/tables/other"))
    }

    @Test func aKeptAnswerIsNeverSentToARequesterWithoutTheRight() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try makeServer { options in
            options.accessPolicy = try! AccessPolicy(json: testPolicy)
            options.tokenVerifier = verifier
        }
        let port = try server.start()
        defer { server.shutdown() }
        let client = TestClient(port: port)
        let reader = "Bearer \(try await keys.token(sub: "reader"))"
        // Verified once here, so that the live requests below find it kept
        // (a new token is verified in a task, which this blocking client would hold up).
        _ = await answer(server.router, .GET, "/api/tables/t", headers: ["Authorization": reader])
        for _ in 0..<3 {
            #expect(try client.request(.GET, "/api/tables/t", headers: ["Authorization": reader]).status == 200)
            #expect(try client.request(.GET, "/api/tables/t").status == 401)
        }
    }

    @Test func aKeptAnswerIsNeverSentToARequestWithACredential() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try makeServer { options in
            options.accessPolicy = try! AccessPolicy(json: #"{"anonymous": "read"}"#)
            options.tokenVerifier = verifier
        }
        let port = try server.start()
        defer { server.shutdown() }
        let client = TestClient(port: port)
        for _ in 0..<3 {
            #expect(try client.request(.GET, "/api/tables/t").status == 200)
            let forged = try client.request(.GET, "/api/tables/t", headers: ["Authorization": "Bearer forged"])
            #expect(forged.status == 401)
            #expect(forged.headers["WWW-Authenticate"]?.contains("invalid_token") == true)
        }
    }

    @Test func theEditTokenIsAdminOfEveryTableUnderAPolicy() async throws {
        let server = try makeServer { options in
            options.accessPolicy = try! AccessPolicy(json: testPolicy)
            options.token = "the-edit-token"
        }
        let headers: HTTPHeaders = ["Authorization": "Bearer the-edit-token", "Content-Type": "application/json"]
        let edit = await answer(
            server.router, .POST, "/api/tables/t/batch", headers: headers,
            body: Array(#"{"deleteRows": [[0, 0]]}"#.utf8))
        #expect(edit.status == 200)
        #expect(await answer(server.router, .DELETE, "/api/tables/t", headers: headers).status == 204)
        let wrong = await answer(server.router, .GET, "/api/tables", headers: ["Authorization": "Bearer not-it"])
        #expect(wrong.status == 401)
        #expect(wrong.headers["WWW-Authenticate"] == "Bearer realm=\"webtableview\", error=\"invalid_token\"")
    }
}
