import JWTKit
import TableAccess

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A token's payload as jwt-kit verifies it: the policy's ``BearerClaims``,
/// with `exp` in the future and `nbf`, when given, in the past. `iss` and
/// `aud` are checked by ``TokenVerifier``, which knows what they must be.
struct BearerPayload: JWTPayload {
    let claims: BearerClaims

    init(from decoder: any Decoder) throws {
        claims = try BearerClaims(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try claims.encode(to: encoder)
    }

    func verify(using _: some JWTAlgorithm) async throws {
        if let refusal = claims.timeRefusal(at: Date()) { throw refusal }
    }
}
