#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What signs share links' keys and verifies them (docs/ACCESS.md, "Share
/// links"): AccessTokens' `ShareLinks`, an HMAC of the server's secret,
/// which the executable passes in `ServerOptions`.
public protocol ShareLinkSigning: Sendable {
    /// The key of a link giving `grant`.
    func key(for grant: ShareGrant) -> String
    /// What `key` grants at `now`, or why it is refused.
    func grant(ofKey key: String, at now: Date) -> Result<ShareGrant, ShareRefusal>
}

extension ShareLinkSigning {
    /// What `key` grants now, or why it is refused.
    public func grant(ofKey key: String) -> Result<ShareGrant, ShareRefusal> { grant(ofKey: key, at: Date()) }
}

/// Why a share link's key is refused, in words that never quote it.
public enum ShareRefusal: Error, Sendable, Equatable {
    /// Not signed by this server's secret: forged, changed or cut.
    case notValid
    /// Past its `expiresAt`.
    case expired

    public var reason: String {
        switch self {
        case .notValid: "this share link is not valid: it was changed, cut, or not made by this server"
        case .expired: "this share link has expired: ask whoever shared it for a new one"
        }
    }
}
