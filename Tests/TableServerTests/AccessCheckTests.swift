import Foundation
import JSON
import MicroHTTP
import Synchronization
import TableAccess
import TableServer
import TableServerTesting
import Testing

/// The server's access checks with the verifier it is given (docs/ACCESS.md):
/// a policy's grants and refusals, and a token not seen before verified off
/// the worker thread and answered later, for many clients at once. The
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

    /// A server under the policy whose tokens `verifier` checks, answering
    /// in-process: a request whose token is verified in a task is waited for
    /// without holding a thread (`answer`), so that the task finds one of
    /// Swift's task threads free while the other suites keep theirs busy.
    func guardedServer(_ verifier: KnownTokens) throws -> WebTableViewServer {
        try makeServer { options in
            options.accessPolicy = try! AccessPolicy(json: Self.policy)
            options.tokenVerifier = verifier
        }
    }

    static func bearer(_ token: String) -> HTTPHeaders {
        ["Authorization": "Bearer \(token)", "Content-Type": "application/json", "Host": "127.0.0.1"]
    }

    static func version(_ response: HTTPResponse) throws -> Int? {
        try JSONParser().parse(bytes(of: response))["version"]?.int
    }

    @Test func eachRequesterIsAnsweredAsThePolicySays() async throws {
        let verifier = try KnownTokens([
            "r": Self.claims(#""sub":"reader""#), "e": Self.claims(#""sub":"ed","roles":["editor"]"#),
            "x": Self.claims(#""sub":"stranger""#), "old": Self.claims(#""sub":"reader""#, expired: true),
        ])
        let router = try guardedServer(verifier).router
        let insert = body(#"{"at": 0, "row": {"id": "n", "text": "N"}}"#)
        let rows = "/api/tables/t/sections/0/rows"
        let anonymous = await answer(router, .GET, "/api/tables/t", headers: ["Host": "127.0.0.1"])
        let answers = [
            anonymous,
            await answer(router, .GET, "/api/tables/t", headers: Self.bearer("r")),
            await answer(router, .GET, "/api/tables/t", headers: Self.bearer("x")),
            await answer(router, .GET, "/api/tables/t", headers: Self.bearer("old")),
            await answer(router, .POST, rows, headers: Self.bearer("r"), body: insert),
            await answer(router, .POST, rows, headers: Self.bearer("e"), body: insert),
            await answer(router, .GET, "/api/tables/t", headers: Self.bearer("e")),
        ]
        #expect(answers.map(\.status) == [401, 200, 403, 401, 403, 200, 200])
        #expect(try JSONParser().parse(bytes(of: answers[0]))["type"]?.string == "unauthorized")
        #expect(try JSONParser().parse(bytes(of: answers[3]))["type"]?.string == "invalid-token")
        #expect(try Self.version(answers[6]) == 1)
        #expect(verifier.verifications.load(ordering: .relaxed) == 6)
    }

    /// Eight clients at once, each token verified in a task and its request
    /// answered when the task ends, on whichever thread that is: each is
    /// answered as its requester's right says, and the edits allowed are
    /// each made once.
    @Test func tokensVerifiedLaterAnswerManyClientsAtOnce() async throws {
        let verifier = try KnownTokens([
            "r": Self.claims(#""sub":"reader""#), "e": Self.claims(#""sub":"ed","roles":["editor"]"#),
            "x": Self.claims(#""sub":"stranger""#),
        ])
        let router = try guardedServer(verifier).router
        let rounds = 25
        let wrong = await withTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong: [String] = []
                    for round in 0..<rounds {
                        let token = ["r", "e", "x", "nobody"][(worker + round) % 4]
                        let edit = worker % 2 == 0
                        let row = body(#"{"at": 0, "row": {"id": "w\#(worker)-\#(round)", "text": "W"}}"#)
                        let status =
                            edit
                            ? await answer(
                                router, .POST, "/api/tables/t/sections/0/rows", headers: Self.bearer(token), body: row
                            ).status
                            : await answer(router, .GET, "/api/tables/t", headers: Self.bearer(token)).status
                        let wanted = ["r": edit ? 403 : 200, "e": 200, "x": 403, "nobody": 401][token]
                        if status != wanted { wrong.append("\(token) \(edit) \(status)") }
                    }
                    return wrong
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(wrong.isEmpty)
        // Workers 0, 2, 4 and 6 edit; their rounds with token "e" are the ones allowed.
        let made = [0, 2, 4, 6].map { worker in (0..<rounds).filter { ($0 + worker) % 4 == 1 }.count }.reduce(0, +)
        #expect(try Self.version(await answer(router, .GET, "/api/tables/t", headers: Self.bearer("e"))) == made)
        #expect(verifier.verifications.load(ordering: .relaxed) == 8 * rounds + 1)
    }
}
