import TableJournal
import TableModel

extension TableServerError {
    /// How a refused switch flip or press names its row: `item "wifi" of table "settings"`.
    private var refusedRow: String {
        switch self {
        case .switchRefused(let table, let row, _), .pressRefused(let table, let row, _):
            "\(row) of table \"\(table)\""
        default: ""
        }
    }
}

extension TableServerError {
    /// The HTTP status of this refusal.
    var status: Int {
        switch self {
        case .tableNotFound, .tableGone, .sectionNotFound, .rowNotFound, .itemNotFound, .sectionIDNotFound,
            .itemNotInView:
            404
        case .tableExists, .tooManyTables, .refused, .selectionDisabled, .switchRefused, .pressRefused,
            .indexEditInView, .idempotencyKeyInUse:
            409
        case .versionMismatch: 412
        case .invalid, .idempotencyKeyReused: 422
        case .badRequest, .malformedEntityTag: 400
        case .unsupportedMediaType, .bodyNotAsDeclared: 415
        case .storageUnavailable, .storageInconsistent, .notCaughtUp, .outcomeUnknown, .overloaded, .tooManyViews,
            .heavyWorkBusy:
            503
        }
    }

    /// The problem document's `type`: a short slug naming the rule.
    var type: String {
        switch self {
        case .tableNotFound, .tableGone, .sectionNotFound, .rowNotFound, .itemNotFound, .sectionIDNotFound,
            .itemNotInView:
            "not-found"
        case .tableExists: "table-exists"
        case .tooManyTables: "too-many-tables"
        case .refused(let error): error.type
        case .selectionDisabled: "selection-disabled"
        case .switchRefused(_, _, .noRow), .switchRefused(_, _, .unknownID): "unknown-id"
        case .switchRefused(_, _, .notASwitch): "not-a-switch"
        case .switchRefused(_, _, .disabled): "switch-disabled"
        case .pressRefused(_, _, .noRow), .pressRefused(_, _, .unknownID): "unknown-id"
        case .pressRefused(_, _, .notAButton): "not-a-button"
        case .versionMismatch: "version-mismatch"
        case .malformedEntityTag: "malformed-entity-tag"
        case .invalid: "validation"
        case .badRequest(let type, _): type
        case .unsupportedMediaType, .bodyNotAsDeclared: "unsupported-media-type"
        case .storageUnavailable, .storageInconsistent: "storage-unavailable"
        case .notCaughtUp: "not-caught-up"
        case .outcomeUnknown: "outcome-unknown"
        case .overloaded: "overloaded"
        case .heavyWorkBusy: "heavy-work-busy"
        case .indexEditInView: "edit-through-view"
        case .tooManyViews: "too-many-views"
        case .idempotencyKeyReused: "idempotency-key-reused"
        case .idempotencyKeyInUse: "idempotency-key-in-use"
        }
    }

    /// The problem document's `detail`, in plain words (UIKit's own for refused batches).
    var detail: String {
        switch self {
        case .tableNotFound(let id), .tableGone(let id):
            "no table with id \"\(id)\""
        case .tooManyTables(let limit):
            "the server holds \(limit) tables, its limit (--max-tables); delete one first"
        case .tableExists(let id):
            "a table with id \"\(id)\" already exists"
        case .sectionNotFound(let table, let section):
            "table \"\(table)\" has no section \(section)"
        case .rowNotFound(let table, let indexPath):
            "table \"\(table)\" has no row \(indexPath.row) in section \(indexPath.section)"
        case .itemNotFound(let table, let id):
            "table \"\(table)\" has no item \"\(id)\""
        case .sectionIDNotFound(let table, let id):
            "table \"\(table)\" has no section \"\(id)\""
        case .itemNotInView(let table, let id):
            "the view leaves out item \"\(id)\" of table \"\(table)\" (its q or a filter): read it without them"
        case .refused(let error):
            error.detail
        case .versionMismatch(let expected, let current, let tag?) where tag != ETag.string(for: current):
            "If-Match \(expected) does not match the table's version \(tag)"
                + (expected.contains(".") ? "" : ": this server's entity tags carry its life, as ETag sends them")
        case .versionMismatch(let expected, let current, _):
            "If-Match \(expected) does not match the table's version \(ETag.string(for: current))"
        case .malformedEntityTag(let tag) where !tag.contains("\""):
            "If-Match: \(tag) names no version: entity tags are quoted, as ETag sends them (If-Match: \"\(tag)\")"
        case .malformedEntityTag(let tag):
            "If-Match: \(tag) names no version: entity tags are quoted, as ETag sends them (If-Match: \"7\")"
        case .selectionDisabled(let id):
            "table \"\(id)\" does not allow selection"
        case .switchRefused(_, _, .noRow), .switchRefused(_, _, .unknownID(_)):
            "attempt to flip the switch of \(refusedRow), which is not in the table"
        case .switchRefused(_, _, .notASwitch):
            "attempt to flip the switch of \(refusedRow), whose accessoryView is not a UISwitch"
        case .switchRefused(_, _, .disabled):
            "attempt to flip the switch of \(refusedRow), which is not enabled (isEnabled == NO)"
        case .pressRefused(_, _, .noRow), .pressRefused(_, _, .unknownID(_)):
            "attempt to press the accessory button of \(refusedRow), which is not in the table"
        case .pressRefused(_, _, .notAButton):
            "attempt to press the accessory button of \(refusedRow), whose accessoryView is not a UIButton"
        case .invalid(let error):
            error.issues.map { "\($0.path): \($0.message)" }.joined(separator: "; ")
        case .badRequest(_, let detail):
            detail
        case .unsupportedMediaType(let type, let accepted):
            "send the body with Content-Type: \(accepted.names) (got \(type.isEmpty ? "none" : "\"\(type)\""))"
        case .bodyNotAsDeclared(let declared, let sent):
            "the body is \(sent == "text/csv" ? "CSV" : "JSON"), not \(declared): send it with Content-Type: \(sent)"
        case .storageUnavailable(let reason):
            "the change could not be recorded durably, so it was not made; retry later: \(reason)"
        case .outcomeUnknown(let reason):
            "the change may or may not have been made: the connection to the database broke while it was committed, and what happened could not be found out (\(reason)); retry with the same Idempotency-Key, or read the table's /changes before retrying"
        case .overloaded(let reason):
            "the server has too many edits waiting, so this one was not made; retry later: \(reason)"
        case .heavyWorkBusy(let reason):
            "the server runs as much heavy work as it takes, so this request was not started; retry later: \(reason)"
        case .notCaughtUp(let table, let version):
            "this replica does not hold version \(version) of \"\(table)\" yet; retry, or ask without Min-Version"
        case .storageInconsistent(let reason):
            "the change was not made: the durable log holds a change this server cannot apply (\(reason))"
        case .tooManyViews(let table, let limit):
            "table \"\(table)\" has \(limit) views followed by event streams, the most it keeps; "
                + "follow one of those, or the table itself"
        case .idempotencyKeyReused(let key):
            "Idempotency-Key \(key) was sent with another request (method, path, query or body) "
                + "whose edit was made: send a new key for a new edit"
        case .idempotencyKeyInUse(let key):
            "an edit with Idempotency-Key \(key) is being made now; retry once it is answered"
        case .indexEditInView(let table):
            "a view's index paths are not the table's: edit rows by id (/api/tables/\(table)/items/{id}), "
                + "or send the edit without q, filter, sort and group"
        }
    }
}

extension TableServerError {
    /// A failure of the durable log as the problem a client receives (503).
    static func storage(_ error: any Error) -> TableServerError {
        if let error = error as? TableServerError { return error }
        return .storageUnavailable((error as? JournalError)?.message ?? "\(error)")
    }

    /// Seconds a client should wait before retrying a 503 (`Retry-After`).
    static let retryAfterSeconds = 1
}
