import JSON

/// A table's own `access` member (docs/FORMAT.md, "Access policy"): rules in the
/// policy file's syntax, without `tables` (each covers its table), and
/// optionally `anonymous`, which takes the place of the policy's for that
/// table. Counted with the policy (`AccessPolicy.grant(of:on:own:)`).
public struct TableAccessRules: Sendable, Equatable {
    /// What a request without a credential may do with the table: nil
    /// (`"none"`) or `read`; `anonymousIsSet` false when the member says
    /// nothing, and the policy's anonymous right holds.
    let anonymous: AccessRight?
    let anonymousIsSet: Bool
    let rules: [AccessRule]

    /// Reads a table's `access` member; refuses anything it does not define,
    /// with the path of what is wrong (as for the policy file).
    public init(_ access: JSONObject) throws(AccessFileError) {
        if let unknown = access.keys.first(where: { $0 != "anonymous" && $0 != "rules" }) {
            throw AccessFileError(file: "access", reason: "unknown member \"\(unknown)\"")
        }
        switch access["anonymous"] {
        case nil:
            anonymous = nil
            anonymousIsSet = false
        case .string("none")?:
            anonymous = nil
            anonymousIsSet = true
        case .string("read")?:
            anonymous = .read
            anonymousIsSet = true
        default: throw AccessFileError(file: "access", reason: "\"anonymous\" is \"read\" or \"none\"")
        }
        var rules: [AccessRule] = []
        switch access["rules"] {
        case nil: break
        case .array(let list)?:
            for (index, rule) in list.enumerated() {
                rules.append(try AccessRule(rule, path: "rules[\(index)]", ofOneTable: true))
            }
        default: throw AccessFileError(file: "access", reason: "\"rules\" is an array")
        }
        self.rules = rules
    }
}
