import TableModel

/// Why the store refused a request. Each case maps to one status code and
/// problem `type` (see `TableServerError+Problem.swift`).
enum TableServerError: Error, Sendable {
    case tableNotFound(String)
    case tableGone(String)
    case tableExists(String)
    /// `create` would pass the server's limit on tables.
    case tooManyTables(Int)
    case sectionNotFound(table: String, section: Int)
    case rowNotFound(table: String, indexPath: TableIndexPath)
    /// No row of the table has this id (a read or a patch by id; the other edits
    /// by id are refused `unknown-id`).
    case itemNotFound(table: String, id: String)
    /// No section of the table has this id (a patch of a section by id).
    case sectionIDNotFound(table: String, id: String)
    /// The table has the row, but the view read leaves it out (its `q` or a filter).
    case itemNotInView(table: String, id: String)
    case refused(BatchError)
    /// `If-Match` names another version than `current`; `currentTag` is the
    /// version as the server's life tags it (`"k3f9a2c1.7"`), once known.
    case versionMismatch(expected: String, current: Int, currentTag: String? = nil)
    /// An `If-Match` tag that is not quoted, so names no version (`7` for `"7"`).
    case malformedEntityTag(String)
    case selectionDisabled(String)
    /// A switch flip refused (`…/switch`): no such row, not a switch, or a disabled one.
    case switchRefused(table: String, row: String, SwitchRefusal)
    /// A press of an accessory button refused (`…/press`): no such row, or its accessory view is not a button.
    case pressRefused(table: String, row: String, PressRefusal)
    case invalid(ValidationError)
    case badRequest(type: String, detail: String)
    /// The body's declared type is not one the route takes (415).
    case unsupportedMediaType(String, BodyTypes)
    /// The body is not what its `Content-Type` declares but what `sent` names:
    /// JSON sent as `text/csv`, or CSV as JSON (415).
    case bodyNotAsDeclared(declared: String, sent: String)
    /// The durable log (journal or database) could not record the change, which
    /// is therefore not made; worth retrying later.
    case storageUnavailable(String)
    /// The connection to the durable log broke while the change was committed,
    /// and whether it was could not be found out: it may have been made.
    case outcomeUnknown(String)
    /// Too many edits wait for the durable log (the shared database): refused
    /// at once, not made.
    case overloaded(String)
    /// The heavy-work queue is full (`HeavyWork`): refused at once, nothing done.
    case heavyWorkBusy(String)
    /// A read's `Min-Version` was not reached in time on this replica.
    case notCaughtUp(table: String, version: Int)
    /// The durable log holds something this server cannot apply.
    case storageInconsistent(String)
    /// An index-based edit sent with a view's parameters: the view's index
    /// paths are not the table's, so only edits by id go through a view.
    case indexEditInView(table: String)
    /// A stream asked to follow one more view of a table that has `OpenViews.limit` open.
    case tooManyViews(table: String, limit: Int)
    /// An `Idempotency-Key` of an edit made for another request (docs/API.md, "Idempotency-Key").
    case idempotencyKeyReused(String)
    /// An `Idempotency-Key` of an edit still being made.
    case idempotencyKeyInUse(String)
}

extension TableServerError {
    /// Whether the error says the table is not here (never was, or was
    /// deleted): a replica asks the database before answering it.
    var isMissingTable: Bool {
        switch self {
        case .tableNotFound, .tableGone: true
        default: false
        }
    }

    /// Whether a create or a delete refused with it may have been made
    /// through another replica under the same key meanwhile: the table is
    /// there (a create) or gone (a delete), or the key was taken.
    var mayBeMadeElsewhere: Bool {
        switch self {
        case .tableNotFound, .tableGone, .tableExists, .idempotencyKeyInUse: true
        default: false
        }
    }
}

extension Error {
    /// Whether the error says an edit's commit may or may not have happened.
    var isOutcomeUnknown: Bool {
        if case .outcomeUnknown = self as? TableServerError { true } else { false }
    }
}
