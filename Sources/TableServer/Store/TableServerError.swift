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
    case refused(BatchError)
    case versionMismatch(expected: String, current: Int)
    case selectionDisabled(String)
    /// A switch flip refused (`…/switch`): no such row, not a switch, or a disabled one.
    case switchRefused(table: String, row: String, SwitchRefusal)
    /// A press of an accessory button refused (`…/press`): no such row, or its accessory view is not a button.
    case pressRefused(table: String, row: String, PressRefusal)
    case invalid(ValidationError)
    case badRequest(type: String, detail: String)
    case unsupportedMediaType(String)
    /// The durable log (journal or database) could not record the change, which
    /// is therefore not made; worth retrying later.
    case storageUnavailable(String)
    /// A read's `Min-Version` was not reached in time on this replica.
    case notCaughtUp(table: String, version: Int)
    /// The durable log holds something this server cannot apply.
    case storageInconsistent(String)
    /// An index-based edit sent with a view's parameters: the view's index
    /// paths are not the table's, so only edits by id go through a view.
    case indexEditInView(table: String)
    /// A stream asked to follow one more view of a table that has `OpenViews.limit` open.
    case tooManyViews(table: String, limit: Int)
}
