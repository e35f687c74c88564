import JSON

/// One rule of a policy (docs/FORMAT.md, "Access policy"): the tables it
/// covers, whose tokens it matches, and the right it gives them.
struct AccessRule: Sendable, Equatable {
    /// Whose token a rule matches.
    enum Match: Sendable, Equatable {
        /// `sub` is this.
        case subject(String)
        /// `role` is this, or `roles` holds it.
        case role(String)
        /// The custom claim `name` is `value`, or an array holding it.
        case claim(name: String, value: String)
    }

    /// Table ids, each exact or, ending with `*`, a prefix (`*` alone: every table).
    let tables: [String]
    let match: Match
    let right: AccessRight
    /// The view the rule binds its requesters' reads of the tables to
    /// (`rows`); nil for the whole tables.
    let rows: RowsTemplate?

    /// Whether the rule covers `table`.
    func covers(_ table: String) -> Bool {
        tables.contains { $0.hasSuffix("*") ? table.hasPrefix($0.dropLast()) : table == $0 }
    }

    /// Whether the rule matches a token with `claims`.
    func matches(_ claims: BearerClaims) -> Bool {
        switch match {
        case .subject(let subject): claims.subject == subject
        case .role(let role): claims.claim("role", holds: role) || claims.claim("roles", holds: role)
        case .claim(let name, let value): claims.claim(name, holds: value)
        }
    }

    /// The rule at `path` of a policy file, or why it is not one. A rule of
    /// a table's own `access` (`ofOneTable`) has no `tables`: it covers that
    /// table, and is only ever asked about it.
    init(_ value: JSONValue, path: String, ofOneTable: Bool = false) throws(AccessFileError) {
        func refuse(_ reason: String) -> AccessFileError {
            AccessFileError(file: ofOneTable ? "access" : "policy", reason: "\(path): \(reason)")
        }
        guard case .object(let rule) = value else { throw refuse("a rule is an object") }
        let known: Set<String> = ["tables", "sub", "role", "claim", "value", "right", "rows"]
        if let unknown = rule.keys.first(where: { !known.contains($0) || (ofOneTable && $0 == "tables") }) {
            throw refuse(
                unknown == "tables"
                    ? "a table's own rule has no \"tables\": it covers its table" : "unknown member \"\(unknown)\"")
        }
        var tables: [String] = ["*"]
        if !ofOneTable {
            guard case .array(let list)? = rule["tables"], !list.isEmpty else {
                throw refuse("\"tables\" is a non-empty array of table ids")
            }
            tables = []
            for case .string(let table) in list where !table.isEmpty { tables.append(table) }
            guard tables.count == list.count else { throw refuse("\"tables\" holds non-empty strings only") }
        }
        guard case .string(let name)? = rule["right"], let right = AccessRight(name: name) else {
            throw refuse("\"right\" is \"read\", \"edit\" or \"admin\"")
        }
        switch (rule["sub"], rule["role"], rule["claim"], rule["value"]) {
        case (.string(let subject)?, nil, nil, nil): match = .subject(subject)
        case (nil, .string(let role)?, nil, nil): match = .role(role)
        case (nil, nil, .string(let name)?, .string(let value)?): match = .claim(name: name, value: value)
        default: throw refuse("a rule matches one of \"sub\", \"role\", or \"claim\" with \"value\", all strings")
        }
        switch rule["rows"] {
        case nil: rows = nil
        case .string(let text)?:
            guard right != .admin else { throw refuse("a rule with \"rows\" gives \"read\" or \"edit\", never admin") }
            do throws(RowsTemplateError) {
                rows = try RowsTemplate(text)
            } catch {
                throw refuse("rows: \(error.reason)")
            }
        default: throw refuse("\"rows\" is a view's query parameters, a string")
        }
        self.tables = tables
        self.right = right
    }
}
