/// What a share link gives (docs/ACCESS.md, "Share links"): one right,
/// `read` or `edit`, on one table, until a time.
public struct ShareGrant: Sendable, Equatable {
    /// The longest a link may live: 30 days.
    public static let longestLife = 30 * 24 * 3600
    /// The table the link opens.
    public let table: String
    /// `read` or `edit`, never `admin`: a share link cannot mint others.
    public let right: AccessRight
    /// When the link stops working, in seconds since 1970 (as a JWT's `exp`).
    public let expiresAt: Int

    public init(table: String, right: AccessRight, expiresAt: Int) {
        self.table = table
        self.right = min(right, .edit)
        self.expiresAt = expiresAt
    }
}
