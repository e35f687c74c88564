import Synchronization
import TableAccess

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Tokens verified already, with their claims, until they expire: a read
/// with a token seen before costs a lookup, not a signature check
/// (docs/ACCESS.md, "Cost"). At most ``capacity`` tokens; when full, the
/// expired ones go, and all of them when none has expired (the ones still in
/// use are verified again at their next request).
final class VerifiedTokens: Sendable {
    static let capacity = 10_000
    private let tokens = Mutex<[String: BearerClaims]>([:])

    /// The claims of `token` if it was verified and is still valid at `now`.
    func claims(of token: String, at now: Date) -> BearerClaims? {
        guard let claims = tokens.withLock({ $0[token] }) else { return nil }
        return now < claims.expiry ? claims : nil
    }

    /// Whether `token` was verified and has expired by `now`: it is refused
    /// without a signature check, the same as every request after its expiry.
    func hasExpired(_ token: String, at now: Date) -> Bool {
        guard let claims = tokens.withLock({ $0[token] }) else { return false }
        return now >= claims.expiry
    }

    func keep(_ claims: BearerClaims, for token: String) {
        let now = Date()
        tokens.withLock { tokens in
            if tokens.count >= Self.capacity {
                tokens = tokens.filter { now < $0.value.expiry }
                if tokens.count >= Self.capacity { tokens.removeAll() }
            }
            tokens[token] = claims
        }
    }
}
