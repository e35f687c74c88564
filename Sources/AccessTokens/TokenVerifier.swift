import JWTKit
import TableAccess

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Verifies bearer JWTs (RFC 7519) with vapor/jwt-kit: HS256 with the
/// server's secret, RS256, ES256 or EdDSA with the keys of a JWKS file, and
/// the claims `exp`, `nbf`, `iss` and `aud` (docs/ACCESS.md, "Tokens").
///
/// Before jwt-kit sees a token, its header must name an algorithm one of the
/// server's keys is declared for (``TokenHeader``): a token without `kid`
/// is HS256 with the secret, one with `kid` uses the algorithm that key's
/// `alg` names. So `alg: none` and algorithm confusion (an RSA public key
/// taken for an HMAC secret) never reach a signature check. A verified token
/// is kept until it expires (``VerifiedTokens``): verifying it again is a
/// dictionary lookup. Tokens are never logged, nor written in a refusal.
public final class TokenVerifier: TokenVerifying {
    private let keys: JWTKeyCollection
    /// The algorithm each key is for: the secret's under nil, a JWK's under its `kid`.
    private let algorithms: [String?: String]
    private let issuer: String?
    private let audience: String?
    private let verified = VerifiedTokens()

    /// Loads the keys: `secret` for HS256, and/or `jwks`, the text of a JWKS
    /// file whose every key has a `kid` and an `alg` of RS256, ES256 or EdDSA.
    public init(secret: String?, jwks: String?, issuer: String?, audience: String?) async throws(AccessFileError) {
        guard secret != nil || jwks != nil else { throw AccessFileError(file: "jwt", reason: "no key is given") }
        let keys = JWTKeyCollection()
        var algorithms: [String?: String] = [:]
        if let secret {
            guard secret.utf8.count >= 32 else {
                throw AccessFileError(file: "jwt secret", reason: "an HS256 secret needs at least 32 bytes")
            }
            await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
            algorithms[nil] = "HS256"
        }
        if let jwks {
            do {
                let set = try JSONDecoder().decode(JWKS.self, from: Data(jwks.utf8))
                for key in set.keys {
                    guard let kid = key.keyIdentifier?.string, let alg = key.algorithm?.rawValue,
                        Self.keyAlgorithms.contains(alg)
                    else {
                        throw AccessFileError(
                            file: "jwks", reason: "each key needs a kid and an alg of RS256, ES256 or EdDSA")
                    }
                    try await keys.add(jwk: key, isDefault: false)
                    algorithms[kid] = alg
                }
            } catch let error as AccessFileError {
                throw error
            } catch {
                throw AccessFileError(file: "jwks", reason: "\(error)")
            }
        }
        self.keys = keys
        self.algorithms = algorithms
        self.issuer = issuer
        self.audience = audience
    }

    /// The algorithms a JWKS key may be declared for.
    static let keyAlgorithms: Set<String> = ["RS256", "ES256", "EdDSA"]

    /// The claims of `token` when it was verified before and is still valid
    /// at `now`: no signature is checked again.
    public func verifiedClaims(of token: String, at now: Date) -> BearerClaims? {
        verified.claims(of: token, at: now)
    }

    /// Why `token` is refused without a signature check, if it is: it was
    /// verified before and has expired since (so a client that keeps sending
    /// it costs a lookup), or its header names no key of this server.
    public func quickRefusal(of token: String, at now: Date) -> TokenRefusal? {
        if verified.hasExpired(token, at: now) { return Self.expired }
        return headerRefusal(of: token)
    }

    /// The refusal of a token past its `exp`.
    static let expired = TokenRefusal("the token has expired")

    /// Why `token` is refused on its header alone, if it is: it is no signed
    /// JWT, or its `alg` and `kid` name no key of this server (`alg: none`,
    /// another algorithm than its key's). Costs no signature check.
    public func headerRefusal(of token: String) -> TokenRefusal? {
        guard let header = TokenHeader(token) else {
            return TokenRefusal("the token is not a signed JWT")
        }
        guard let expected = algorithms[header.keyID], expected == header.algorithm else {
            return TokenRefusal("the token's alg and kid name no key of this server")
        }
        return nil
    }

    /// Verifies `token`'s header, signature and claims; the claims, kept
    /// until the token expires, or why it is refused.
    public func verify(_ token: String) async -> Result<BearerClaims, TokenRefusal> {
        if let claims = verified.claims(of: token, at: Date()) {
            return .success(claims)
        }
        if let refusal = quickRefusal(of: token, at: Date()) {
            return .failure(refusal)
        }
        let claims: BearerClaims
        do {
            claims = try await keys.verify(token, as: BearerPayload.self).claims
        } catch {
            return .failure(TokenRefusal("the token's signature or claims are not valid"))
        }
        if let refusal = refusal(of: claims) {
            return .failure(refusal)
        }
        verified.keep(claims, for: token)
        return .success(claims)
    }

    /// Why `iss` or `aud` do not fit this server, if they do not.
    private func refusal(of claims: BearerClaims) -> TokenRefusal? {
        if let issuer, !claims.claim("iss", holds: issuer) {
            return TokenRefusal("the token's issuer (iss) is not the one this server trusts")
        }
        switch (audience, claims.claims["aud"]) {
        case (nil, nil): return nil
        case (let audience?, _) where claims.claim("aud", holds: audience): return nil
        default: return TokenRefusal("the token's audience (aud) is not this server")
        }
    }
}
