import Foundation
import MicroHTTP
import MicroHTTPTesting
import TableAccess
import AccessTokens
import TableServer
import TableServerTesting

/// A server of the tests' policy that mints share links (docs/ACCESS.md,
/// "Share links"), over tables `t` and `other`, and what its tests send.
struct ShareFixture {
    let client: TestClient
    let keys: AccessKeys
    let verifier: TokenVerifier
    static let links = ShareLinks(secret: AccessKeys.secret)

    /// Runs `body` with a client of a new server, in process or over a socket.
    static func run(
        _ transport: TestTransport, policy: String = testPolicy, _ body: (ShareFixture) async throws -> Void
    ) async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try makeServer(
            policy: policy, tables: [fixtureTable(), fixtureTable(id: "other")], verifier: verifier, shareLinks: links)
        switch transport {
        case .inProcess:
            try await body(ShareFixture(client: TestClient(router: server.router), keys: keys, verifier: verifier))
        case .live:
            let port = try server.start()
            defer { server.shutdown() }
            try await body(ShareFixture(client: TestClient(port: port), keys: keys, verifier: verifier))
        }
    }

    /// JSON, from this server's own origin.
    static let plain: HTTPHeaders = [
        "Content-Type": "application/json", "Host": "127.0.0.1", "Origin": "http://127.0.0.1",
    ]

    static func bearer(_ token: String) -> HTTPHeaders {
        var headers = plain
        headers.set("Authorization", "Bearer \(token)")
        return headers
    }

    static func cookie(_ key: String) -> HTTPHeaders {
        var headers = plain
        headers.set("Cookie", "theme=dark; webtableview-share=\(key); other=1")
        return headers
    }

    static let admin = bearer(AccessMatrixTests.editToken)

    /// `POST /api/tables/{table}/share` with `body`.
    func mint(_ body: String, table: String = "t", headers: HTTPHeaders = ShareFixture.admin) throws -> TestResponse {
        try client.request(.POST, "/api/tables/\(table)/share", headers: headers, body: Array(body.utf8))
    }

    /// A link's key, minted by the edit token.
    func key(_ right: String, table: String = "t") throws -> String {
        let url = try mint(#"{"right":"\#(right)","expiresIn":600}"#, table: table).json["url"]?.string ?? ""
        return String(url.split(separator: "=", maxSplits: 1).last ?? "")
    }

    /// A bearer token verified already, so that a blocking client is answered at once.
    func token(sub: String, roles: [String] = []) async throws -> String {
        try await keys.verifiedToken(by: verifier, sub: sub, roles: roles)
    }

    static var now: Int { Int(Date().timeIntervalSince1970) }
}
