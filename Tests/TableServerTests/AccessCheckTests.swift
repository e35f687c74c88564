import Dispatch
import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import TableAccess
import TableServer
import TableServerTesting
import Testing

/// The server's access checks with the verifier it is given (docs/ACCESS.md):
/// a policy's grants and refusals, and a token not seen before verified off
/// the worker thread and answered later, from many connections at once. The
/// signed tokens themselves (AccessTokens, jwt-kit) are tested with real JWTs
/// in ServerAccessTests; this suite is the one the sanitizers run, whose
/// builds leave jwt-kit out (Package.swift).
@Suite(.timeLimit(.minutes(1))) struct AccessCheckTests {
    /// A verifier of a fixed set of tokens, each with its claims: it keeps
    /// none as verified, so every request goes through `verify`, which
    /// answers after a suspension, on another thread than the request's.
    final class KnownTokens: TokenVerifying {
        let claims: [String: BearerClaims]
        let verifications = Atomic(0)

        init(_ claims: [String: String]) throws {
            self.claims = try claims.mapValues { try JSONDecoder().decode(BearerClaims.self, from: Data($0.utf8)) }
        }

        func verifiedClaims(of token: String, at now: Date) -> BearerClaims? { nil }

        func quickRefusal(of token: String, at now: Date) -> TokenRefusal? {
            token.isEmpty ? TokenRefusal("the token is empty") : nil
        }

        func verify(_ token: String) async -> Result<BearerClaims, TokenRefusal> {
            verifications.add(1, ordering: .relaxed)
            await Task.yield()
            guard let claims = claims[token], claims.timeRefusal(at: Date()) == nil else {
                return .failure(TokenRefusal("the token is not one of this server's"))
            }
            return .success(claims)
        }
    }

    static let policy = """
        {"anonymous": "none", "rules": [
          {"tables": ["t"], "sub": "reader", "right": "read"},
          {"tables": ["t"], "role": "editor", "right": "edit"}
        ]}
        """

    /// Claims valid for an hour, or expired a minute ago.
    static func claims(_ fields: String, expired: Bool = false) -> String {
        let exp = Int(Date().timeIntervalSince1970) + (expired ? -60 : 3600)
        return #"{"exp":\#(exp)\#(fields.isEmpty ? "" : ",")\#(fields)}"#
    }

    /// Runs `clients` against a server under the policy whose tokens
    /// `verifier` checks, on a thread of its own: the clients block on their
    /// sockets while the server verifies tokens in tasks, which must find
    /// one of Swift's task threads free.
    func withGuardedServer<Result: Sendable>(
        _ verifier: KnownTokens, _ clients: @escaping @Sendable (TestClient) throws -> Result
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Swift.Result {
                        var answer: Result?
                        try withServer(.live) { options in
                            options.accessPolicy = try! AccessPolicy(json: Self.policy)
                            options.tokenVerifier = verifier
                        } _: { client in
                            answer = try clients(client)
                        }
                        return answer!
                    })
            }.start()
        }
    }

    static func bearer(_ token: String) -> HTTPHeaders {
        ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
    }

    @Test func eachRequesterIsAnsweredAsThePolicySays() async throws {
        let verifier = try KnownTokens([
            "r": Self.claims(#""sub":"reader""#), "e": Self.claims(#""sub":"ed","roles":["editor"]"#),
            "x": Self.claims(#""sub":"stranger""#), "old": Self.claims(#""sub":"reader""#, expired: true),
        ])
        let answers = try await withGuardedServer(verifier) { client in
            let insert = body(#"{"at": 0, "row": {"id": "n", "text": "N"}}"#)
            let rows = "/api/tables/t/sections/0/rows"
            return [
                try client.request(.GET, "/api/tables/t"),
                try client.request(.GET, "/api/tables/t", headers: Self.bearer("r")),
                try client.request(.GET, "/api/tables/t", headers: Self.bearer("x")),
                try client.request(.GET, "/api/tables/t", headers: Self.bearer("old")),
                try client.request(.POST, rows, headers: Self.bearer("r"), body: insert),
                try client.request(.POST, rows, headers: Self.bearer("e"), body: insert),
                try client.request(.GET, "/api/tables/t", headers: Self.bearer("e")),
            ]
        }
        #expect(answers.map(\.status) == [401, 200, 403, 401, 403, 200, 200])
        #expect(try answers[0].json["type"]?.string == "unauthorized")
        #expect(try answers[3].json["type"]?.string == "invalid-token")
        #expect(try answers[6].json["version"]?.int == 1)
        #expect(verifier.verifications.load(ordering: .relaxed) == 6)
    }

    /// Requests from eight connections at once, each token verified in a
    /// task and its request answered when the task ends: each is answered as
    /// its requester's right says, and the edits allowed are each made once.
    @Test func tokensVerifiedLaterAnswerManyConnectionsAtOnce() async throws {
        let verifier = try KnownTokens([
            "r": Self.claims(#""sub":"reader""#), "e": Self.claims(#""sub":"ed","roles":["editor"]"#),
            "x": Self.claims(#""sub":"stranger""#),
        ])
        let rounds = 25
        let (wrong, version) = try await withGuardedServer(verifier) { client in
            let wrong = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for round in 0..<rounds {
                    let token = ["r", "e", "x", "nobody"][(worker + round) % 4]
                    let edit = worker % 2 == 0
                    let row = body(#"{"at": 0, "row": {"id": "w\#(worker)-\#(round)", "text": "W"}}"#)
                    let status =
                        (try? edit
                        ? client.request(.POST, "/api/tables/t/sections/0/rows", headers: Self.bearer(token), body: row)
                        : client.request(.GET, "/api/tables/t", headers: Self.bearer(token)))?.status
                    let wanted = ["r": edit ? 403 : 200, "e": 200, "x": 403, "nobody": 401][token]
                    if status != wanted { wrong.withLock { $0.append("\(token) \(edit) \(status ?? 0)") } }
                }
            }
            let version = try client.request(.GET, "/api/tables/t", headers: Self.bearer("e")).json["version"]?.int
            return (wrong.withLock { $0 }, version)
        }
        #expect(wrong.isEmpty)
        // Workers 0, 2, 4 and 6 edit; their rounds with token "e" are the ones allowed.
        let made = [0, 2, 4, 6].map { worker in (0..<rounds).filter { ($0 + worker) % 4 == 1 }.count }.reduce(0, +)
        #expect(version == made)
        #expect(verifier.verifications.load(ordering: .relaxed) == 8 * rounds + 1)
    }
}
