/// Who sent a request (the "actor"; `Actor` is Swift's): nobody
/// known, the holder of the edit token, the subject of a verified JWT, or a
/// browser that opened a share link.
public enum Requester: Sendable, Equatable {
    /// No credential: the policy's anonymous rights.
    case anonymous
    /// The server's edit token: admin of every table, as before policies.
    case editToken
    /// A bearer JWT whose signature and claims were verified.
    case bearer(BearerClaims)
    /// A share link's cookie (docs/ACCESS.md, "Share links"): its one right
    /// on its one table, never admin.
    case share(ShareGrant)

    /// The requester a handler runs for, bound by the access check around it
    /// (`withValue`); anonymous outside one.
    @TaskLocal public static var current = Requester.anonymous
}

extension Requester {
    /// What the changes this requester makes record as their actor
    /// (docs/ACCESS.md, "Audit"): a token's `sub`, `edit-token` for the edit
    /// token, `share-link` for a share link's cookie (a link names no one),
    /// nothing for an anonymous request or a token without `sub`.
    public var auditActor: String? {
        switch self {
        case .anonymous: nil
        case .editToken: "edit-token"
        case .bearer(let claims): claims.subject
        case .share: "share-link"
        }
    }
}
