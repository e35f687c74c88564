#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What verifies bearer tokens for the server (docs/ACCESS.md, "Tokens"):
/// AccessTokens' `TokenVerifier`, on jwt-kit, which the executable passes in
/// `ServerOptions`. The server asks the two quick questions on its worker
/// thread and verifies a new token off it.
public protocol TokenVerifying: Sendable {
    /// The claims of `token` when it was verified before and is still valid
    /// at `now`: no signature is checked again.
    func verifiedClaims(of token: String, at now: Date) -> BearerClaims?
    /// Why `token` is refused without a signature check, if it is.
    func quickRefusal(of token: String, at now: Date) -> TokenRefusal?
    /// Verifies `token`'s header, signature and claims: its claims, or why it is refused.
    func verify(_ token: String) async -> Result<BearerClaims, TokenRefusal>
}

extension TokenVerifying {
    /// The claims of `token` when it was verified before and is still valid now.
    public func verifiedClaims(of token: String) -> BearerClaims? { verifiedClaims(of: token, at: Date()) }
    /// Why `token` is refused now without a signature check, if it is.
    public func quickRefusal(of token: String) -> TokenRefusal? { quickRefusal(of: token, at: Date()) }
}

/// Why a bearer token was refused, in words that never quote it.
public struct TokenRefusal: Error, Sendable, Equatable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}
