import JSON
import TableModel

/// Who may do what with each table: the policy file named at start-up
/// (`--access-policy`; docs/FORMAT.md, "Access policy").
///
/// A requester's right on a table is the highest of the anonymous right
/// (which everyone has) and the rights of the rules that cover the table and
/// match the requester's token; the edit token is admin of every table, and
/// a share link gives its right on its table.
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
        grant(of: requester, on: table)?.right
    }

    /// What `requester` may do with `table`, and the view its reads are bound
    /// to; nil for nothing. The anonymous right and the rules without `rows`
    /// give the whole table: when any of them gives a right, the highest is
    /// the grant. Else the first rule with `rows` that matches, and whose
    /// view the token's claims complete, gives its right and view.
    public func grant(of requester: Requester, on table: String) -> AccessGrant? {
        Self.grant(of: requester, on: table, anonymous: anonymous, rules: rules.lazy.filter { $0.covers(table) })
    }

    /// `grant(of:on:)` for a table with its own `access` (`own`; docs/FORMAT.md,
    /// "access"): its rules count with the policy's that cover the table, the
    /// policy's first, and its `anonymous`, when it says one, takes the place
    /// of the policy's.
    public func grant(of requester: Requester, on table: String, own: TableAccessRules?) -> AccessGrant? {
        guard let own else { return grant(of: requester, on: table) }
        return Self.grant(
            of: requester, on: table, anonymous: own.anonymousIsSet ? own.anonymous : anonymous,
            rules: rules.filter { $0.covers(table) } + own.rules)
    }

    private static func grant(
        of requester: Requester, on table: String, anonymous: AccessRight?, rules: some Collection<AccessRule>
    ) -> AccessGrant? {
        switch requester {
        case .anonymous: return anonymous.map { AccessGrant(right: $0, rows: nil) }
        case .editToken: return AccessGrant(right: .admin, rows: nil)
        case .share(let share):
            let right = share.table == table ? max(anonymous ?? share.right, share.right) : anonymous
            return right.map { AccessGrant(right: $0, rows: nil) }
        case .bearer(let claims):
            let matching = rules.lazy.filter { $0.matches(claims) }
            let whole = matching.filter { $0.rows == nil }.map(\.right).reduce(anonymous) { best, right in
                max(best ?? right, right)
            }
            if let whole { return AccessGrant(right: whole, rows: nil) }
            for rule in matching {
                if let rows = rule.rows?.query(for: claims) { return AccessGrant(right: rule.right, rows: rows) }
            }
            return nil
        }
    }

    /// Whether `requester` is an operator, who may read `/metrics`: the edit
    /// token, or a token an `admin` rule for `*` (every table) matches.
    public func isOperator(_ requester: Requester) -> Bool {
        switch requester {
        case .anonymous, .share: false
        case .editToken: true
        case .bearer(let claims):
            rules.contains { $0.right == .admin && $0.rows == nil && $0.tables.contains("*") && $0.matches(claims) }
        }
    }
}

/// A requester's right on a table, and the view its reads are bound to.
public struct AccessGrant: Sendable, Equatable {
    public let right: AccessRight
    /// The rows the requester reads, edits and follows (a rule's `rows`,
    /// completed with its token's claims); nil for the whole table.
    public let rows: TableQuery?
}
