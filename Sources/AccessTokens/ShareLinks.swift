import Crypto
import TableAccess

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Signs and verifies share links' keys (docs/ACCESS.md, "Share links").
///
/// A key is `<table>.<right>.<expiresAt>.<signature>`: the table's id in
/// base64url, `read` or `edit`, seconds since 1970, and the HMAC-SHA256 of
/// the three (swift-crypto, the library jwt-kit signs with) in base64url.
/// The HMAC key is derived from the HS256 secret of bearer JWTs
/// (`--jwt-secret-file`) with a label of its own, so a share key is never a
/// bearer JWT nor the other way round, and every replica given the same
/// secret verifies every other's links. A key is checked in constant time
/// and holds only what it grants: verifying one needs no lookup.
public struct ShareLinks: ShareLinkSigning {
    private let key: SymmetricKey

    /// The signer of the server whose HS256 secret is `secret`.
    public init(secret: String) {
        let derived = HMAC<SHA256>.authenticationCode(
            for: Array("webtableview share links v1".utf8), using: SymmetricKey(data: Array(secret.utf8)))
        key = SymmetricKey(data: Array(derived))
    }

    /// The key of a link giving `grant`.
    public func key(for grant: ShareGrant) -> String {
        let signed = "\(Base64URL.encoded(Array(grant.table.utf8))).\(grant.right.name).\(grant.expiresAt)"
        let signature = HMAC<SHA256>.authenticationCode(for: Array(signed.utf8), using: key)
        return "\(signed).\(Base64URL.encoded(Array(signature)))"
    }

    /// What `key` grants at `now`, or why it is refused: it is not a key this
    /// server's secret signed (forged, changed, cut), or it has expired.
    public func grant(ofKey key: String, at now: Date) -> Result<ShareGrant, ShareRefusal> {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, let signature = Base64URL.decoded(parts[3]),
            HMAC<SHA256>.isValidAuthenticationCode(
                signature, authenticating: Array(parts[0..<3].joined(separator: ".").utf8), using: self.key),
            let table = Base64URL.decoded(parts[0]).flatMap({ String(validating: $0, as: UTF8.self) }),
            let right = AccessRight(name: String(parts[1])), right <= .edit,
            let expiresAt = Int(parts[2])
        else { return .failure(.notValid) }
        guard Double(expiresAt) > now.timeIntervalSince1970 else { return .failure(.expired) }
        return .success(ShareGrant(table: table, right: right, expiresAt: expiresAt))
    }
}
