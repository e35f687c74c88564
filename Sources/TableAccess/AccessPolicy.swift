import JSON

/// Who may do what with each table: the policy file named at start-up
/// (`--access-policy`; docs/FORMAT.md, "Access policy").
///
/// A requester's right on a table is the highest of the anonymous right
/// (which everyone has) and the rights of the rules that cover the table and
/// match the requester's token; the edit token is admin of every table.
public struct AccessPolicy: Sendable, Equatable {
    /// What a request without a credential may do with every table: `read`
    /// (as without a policy) or nothing.
    public let anonymous: AccessRight?
    let rules: [AccessRule]

    /// Reads a policy file's text; refuses anything it does not define.
    public init(json text: String) throws(AccessFileError) {
        let document: JSONValue
        do {
            document = try JSONParser().parse(text)
        } catch {
            throw AccessFileError(file: "policy", reason: "not JSON: \(error)")
        }
        guard case .object(let policy) = document else {
            throw AccessFileError(file: "policy", reason: "a policy is a JSON object")
        }
        if let unknown = policy.keys.first(where: { $0 != "anonymous" && $0 != "rules" }) {
            throw AccessFileError(file: "policy", reason: "unknown member \"\(unknown)\"")
        }
        switch policy["anonymous"] {
        case nil, .string("none")?: anonymous = nil
        case .string("read")?: anonymous = .read
        default: throw AccessFileError(file: "policy", reason: "\"anonymous\" is \"read\" or \"none\"")
        }
        var rules: [AccessRule] = []
        switch policy["rules"] {
        case nil: break
        case .array(let list)?:
            for (index, rule) in list.enumerated() { rules.append(try AccessRule(rule, path: "rules[\(index)]")) }
        default: throw AccessFileError(file: "policy", reason: "\"rules\" is an array")
        }
        self.rules = rules
    }

    /// The highest right `requester` has on `table`; nil for none.
    public func right(of requester: Requester, on table: String) -> AccessRight? {
        switch requester {
        case .anonymous: anonymous
        case .editToken: .admin
        case .bearer(let claims):
            rules.lazy.filter { $0.covers(table) && $0.matches(claims) }.map(\.right).reduce(anonymous) { best, right in
                max(best ?? right, right)
            }
        }
    }

    /// Whether `requester` is an operator, who may read `/metrics`: the edit
    /// token, or a token an `admin` rule for `*` (every table) matches.
    public func isOperator(_ requester: Requester) -> Bool {
        switch requester {
        case .anonymous: false
        case .editToken: true
        case .bearer(let claims): rules.contains { $0.right == .admin && $0.tables.contains("*") && $0.matches(claims) }
        }
    }
}
