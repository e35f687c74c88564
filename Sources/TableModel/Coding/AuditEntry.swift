/// One line of a table's audit trail (`webtableview audit`; docs/ACCESS.md,
/// "Audit"): the version a change made, when and by whom when the log kept
/// it, and what it did.
public struct AuditEntry: Sendable, Equatable {
    /// The table's version after it.
    public var version: Int
    /// When, in seconds since 1970: kept for a change made under an
    /// `Idempotency-Key` (`ChangeKey.madeAt`); nil otherwise.
    public var madeAt: Int?
    /// Who (`ChangeActor`); nil for an anonymous change, or one recorded
    /// before actors were.
    public var actor: String?
    /// What it did, in a few words (`Batch.summary`, or a create or delete).
    public var what: String

    public init(version: Int, madeAt: Int? = nil, actor: String? = nil, what: String) {
        self.version = version
        self.madeAt = madeAt
        self.actor = actor
        self.what = what
    }

    /// The entry of one recorded change.
    public init(version: Int, batch: Batch, key: ChangeKey?, actor: String?) {
        self.init(version: version, madeAt: key?.madeAt, actor: actor, what: batch.summary)
    }
}
