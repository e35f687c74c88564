import JSON
import TableModel

/// A refusal from the server: its RFC 9457 problem document (docs/API.md,
/// "Status codes"), with `type` read into `kind`.
public struct TableProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The rule a refusal names, from the problem's `type`.
    public enum Kind: Sendable, Equatable {
        /// A batch UIKit would refuse (`409`), in UIKit's words.
        case batch(BatchError.Rule)
        /// An edit by id naming an id that is not in the table, or none (`409`).
        case identifiedEdit(IdentifiedEditRule)
        /// A valid JSON body that is not a valid document (`422`); `issues` say where.
        case validation
        /// `If-Match` named another version (`412`).
        case versionMismatch
        /// No such table, section or row (`404`).
        case notFound
        /// The changes asked for are no longer kept (`410`): reload the table.
        case historyGone
        /// The server could not record the edit (`503`); nothing of it was applied.
        case storageUnavailable
        /// A replica behind `Min-Version` for too long (`503`).
        case notCaughtUp
        /// An edit without the configured token (`401`).
        case unauthorized
        /// A table id in use (`409`).
        case tableExists
        /// The server holds `--max-tables` tables (`409`).
        case tooManyTables
        /// A switch flipped on a row without one, or one not enabled (`409`).
        case notASwitch, switchDisabled
        /// A press of a row whose accessory view is not a button (`409`).
        case notAButton
        /// A selection the table does not allow (`409`).
        case selectionDisabled
        /// A parameter that is not valid (`400`), malformed JSON (`400`).
        case badParameter, malformedJSON
        /// The server is stopping (`503`).
        case shuttingDown
        /// The server holds as many waiting edits as it takes (`503`); nothing of this one was applied.
        case overloaded
        /// The server runs as many heavy requests (imports, snapshots, large
        /// bodies, views of large tables) as it takes (`503`); nothing of this one was done.
        case heavyWorkBusy
        /// The database stopped answering while this edit's group committed (`503`):
        /// it may or may not have been made. Read the table before sending it again.
        case outcomeUnknown
        /// Any other `type`, as the server wrote it.
        case other(String)

        private static let named: [String: Kind] = [
            "validation": .validation, "version-mismatch": .versionMismatch, "not-found": .notFound,
            "history-gone": .historyGone, "storage-unavailable": .storageUnavailable, "not-caught-up": .notCaughtUp,
            "unauthorized": .unauthorized, "table-exists": .tableExists, "too-many-tables": .tooManyTables,
            "not-a-switch": .notASwitch, "switch-disabled": .switchDisabled, "not-a-button": .notAButton,
            "selection-disabled": .selectionDisabled, "bad-parameter": .badParameter,
            "malformed-json": .malformedJSON, "shutting-down": .shuttingDown, "overloaded": .overloaded,
            "heavy-work-busy": .heavyWorkBusy, "outcome-unknown": .outcomeUnknown,
        ]

        /// Whether the server says nothing of the request was applied, so that
        /// sending it again cannot make it twice (docs/API.md, "Replicas").
        public var wasNotMade: Bool {
            switch self {
            case .storageUnavailable, .overloaded, .heavyWorkBusy, .notCaughtUp, .shuttingDown: true
            default: false
            }
        }

        public init(type: String) {
            if let rule = BatchError.Rule(rawValue: type) {
                self = .batch(rule)
            } else if let rule = IdentifiedEditRule(rawValue: type) {
                self = .identifiedEdit(rule)
            } else {
                self = Self.named[type] ?? .other(type)
            }
        }
    }

    public var kind: Kind
    /// The problem's `type`, as sent.
    public var type: String
    public var status: Int
    public var title: String
    /// The server's words: UIKit's own where UIKit has an assertion for the rule.
    public var detail: String
    /// For `validation`: every issue with its JSON path.
    public var issues: [ValidationIssue]

    public init(type: String, status: Int, title: String, detail: String, issues: [ValidationIssue] = []) {
        self.kind = Kind(type: type)
        self.type = type
        self.status = status
        self.title = title
        self.detail = detail
        self.issues = issues
    }

    public var description: String { "\(status) \(type): \(detail)" }

    /// The problem an answer carries; one without a problem document keeps its
    /// status, with `type` `http-<status>`.
    init(_ answer: HTTPAnswer) {
        let document = try? JSONParser().parse(answer.body)
        guard case .object(let object)? = document else {
            self.init(
                type: "http-\(answer.status)", status: answer.status, title: "HTTP \(answer.status)",
                detail: String(decoding: answer.body.prefix(200), as: UTF8.self))
            return
        }
        func text(_ key: String) -> String? {
            if case .string(let value)? = object[key] { return value }
            return nil
        }
        var issues: [ValidationIssue] = []
        if case .array(let errors)? = object["errors"] {
            for case .object(let error) in errors {
                if case .string(let path)? = error["path"], case .string(let message)? = error["message"] {
                    issues.append(ValidationIssue(path: path, message: message))
                }
            }
        }
        self.init(
            type: text("type") ?? "http-\(answer.status)", status: answer.status,
            title: text("title") ?? "HTTP \(answer.status)", detail: text("detail") ?? "", issues: issues)
    }
}

/// Why a `TableClient` call failed.
public enum TableClientError: Error, Sendable, CustomStringConvertible {
    /// The server refused, with its problem document.
    case problem(TableProblem)
    /// No answer: the connection failed or was cut, after every retry.
    case unreachable(String)
    /// An answer the client cannot read (not the documented JSON).
    case unreadableAnswer(String)

    public var description: String {
        switch self {
        case .problem(let problem): problem.description
        case .unreachable(let reason): "the server cannot be reached: \(reason)"
        case .unreadableAnswer(let reason): "an answer the client cannot read: \(reason)"
        }
    }

    /// The problem, when the server refused.
    public var problem: TableProblem? {
        if case .problem(let problem) = self { return problem }
        return nil
    }
}
