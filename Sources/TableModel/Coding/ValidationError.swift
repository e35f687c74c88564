/// One reason a document is not a valid Table, Section, Row or batch: where
/// (a JSON path such as `$.sections[1].rows[3].accessory`) and what.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// `$` is the document itself; `.key` a member, `[i]` an array element.
    public var path: String
    /// Plain words, e.g. `unknown value "arrow"`.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `$.sections[1].rows[3].accessory: unknown value "arrow"`.
    public var description: String { "\(path): \(message)" }
}

/// A document refused by `ModelDecoder`, with every issue found in it, in
/// document order (decoding goes on after the first one).
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var issues: [ValidationIssue]

    public init(issues: [ValidationIssue]) {
        self.issues = issues
    }

    /// One issue per line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
