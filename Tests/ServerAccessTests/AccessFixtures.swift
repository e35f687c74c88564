import Foundation
import JSON
import JWTKit
import MicroHTTP
import MicroHTTPTesting
import TableAccess
import TableModel
import AccessTokens
import TableServer
import TableServerTesting

/// The claims the tests sign: any of the registered ones, `sub`, `roles` and a custom `team`.
struct MintedClaims: JWTPayload {
    var sub: String?
    var roles: [String]?
    var team: String?
    var exp: Int
    var nbf: Int?
    var iss: String?
    var aud: String?

    /// The server checks the claims; minting checks nothing.
    func verify(using _: some JWTAlgorithm) async throws {}
}

/// The keys of the tests' server and of the tokens they sign: an HS256
/// secret, and an ES256 key published in a JWKS file.
struct AccessKeys {
    static let secret = "a-secret-of-forty-bytes-for-hs256-tests!"
    static let issuer = "https://issuer.example"
    static let audience = "webtableview-tests"
    let signing = JWTKeyCollection()
    let ecdsa = ES256PrivateKey()

    /// The JWKS the server is started with: the ES256 key's public half.
    var jwks: String {
        let (x, y) = ecdsa.publicKey.parameters!
        return #"{"keys":[{"kty":"EC","crv":"P-256","kid":"ec1","alg":"ES256","use":"sig","x":"\#(x)","y":"\#(y)"}]}"#
    }

    init() async {
        await signing.add(hmac: HMACKey(from: Self.secret), digestAlgorithm: .sha256)
        await signing.add(ecdsa: ecdsa, kid: "ec1")
    }

    /// A verifier of these keys, as `serve --jwt-secret-file --jwks` makes.
    func verifier() async throws -> TokenVerifier {
        try await TokenVerifier(secret: Self.secret, jwks: jwks, issuer: Self.issuer, audience: Self.audience)
    }

    /// A token for these claims, valid for an hour from now unless told otherwise.
    func token(
        sub: String? = nil, roles: [String]? = nil, team: String? = nil, expiresIn: Int = 3600, notBefore: Int? = nil,
        issuer: String = AccessKeys.issuer, audience: String = AccessKeys.audience, kid: String? = nil
    ) async throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let claims = MintedClaims(
            sub: sub, roles: roles, team: team, exp: now + expiresIn, nbf: notBefore.map { now + $0 }, iss: issuer,
            aud: audience)
        return try await signing.sign(claims, kid: kid.map { JWKIdentifier(string: $0) })
    }
}

/// The policy of the tests: nothing for anonymous requests; `reader` reads
/// table `t`, the role `row-reader` reads the rows of `t` whose text is its
/// `sub` (docs/ACCESS.md, "Rows per reader"), the role `editor` edits it, the team `ops` administers every
/// table (and so may read `/metrics`).
let testPolicy = """
    {
      "anonymous": "none",
      "rules": [
        {"tables": ["t"], "sub": "reader", "right": "read"},
        {"tables": ["t"], "role": "row-reader", "rows": "filter[text]={sub}", "right": "read"},
        {"tables": ["t", "team-*"], "role": "editor", "right": "edit"},
        {"tables": ["*"], "claim": "team", "value": "ops", "right": "admin"}
      ]
    }
    """

/// Base64url text without padding.
func base64URL(_ bytes: some Sequence<UInt8>) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

/// A server under `policy` whose tokens `verifier` checks, the edit token
/// that of the matrix; it mints share links with `shareLinks`.
func makeServer(
    policy: String, tables: [Table] = [fixtureTable()], verifier: TokenVerifier, shareLinks: ShareLinks? = nil
) throws -> WebTableViewServer {
    try makeServer(tables: tables) { options in
        options.accessPolicy = try! AccessPolicy(json: policy)
        options.tokenVerifier = verifier
        options.token = AccessMatrixTests.editToken
        options.shareLinks = shareLinks
    }
}

/// Runs `body` with a server under `policy` listening on a free port of
/// 127.0.0.1, fresh keys whose tokens it accepts, their verifier and a client
/// of it; the server is shut down after.
func withPolicyServer(
    policy: String = testPolicy, shareLinks: ShareLinks? = nil,
    _ body: (AccessKeys, TokenVerifier, TestClient) async throws -> Void
) async throws {
    let keys = await AccessKeys()
    let verifier = try await keys.verifier()
    let server = try makeServer(policy: policy, verifier: verifier, shareLinks: shareLinks)
    let port = try server.start()
    defer { server.shutdown() }
    try await body(keys, verifier, TestClient(port: port))
}

extension AccessKeys {
    /// A token `verifier` has verified already, so that a request with it is
    /// answered at once: a blocking test client would hold up the task that
    /// verifies a new one.
    func verifiedToken(
        by verifier: TokenVerifier, sub: String? = nil, roles: [String]? = nil, team: String? = nil,
        expiresIn: Int = 3600
    ) async throws -> String {
        let token = try await token(sub: sub, roles: roles, team: team, expiresIn: expiresIn)
        _ = try await verifier.verify(token).get()
        return token
    }
}
