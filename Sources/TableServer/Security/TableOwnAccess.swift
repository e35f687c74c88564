import JSON
import Synchronization
import TableAccess
import TableModel

extension AccessControl {
    /// `requester`'s grant on `table`: the policy's, with the table's own
    /// `access` (docs/FORMAT.md, "Access policy"; docs/ACCESS.md, "Access per table").
    func grant(of requester: Requester, on table: String) -> AccessGrant? {
        policy.grant(of: requester, on: table, own: ownAccess(of: table))
    }

    /// The rules of `table`'s own `access`; nil when it has none (or there is
    /// no such table). Every `access` was read when it was written
    /// (`TableAccessCheck`), so it reads again.
    private func ownAccess(of table: String) -> TableAccessRules? {
        guard let access = (try? store.handle(table))?.table.access else { return nil }
        return ownRules.rules(of: table, access)
    }
}

/// The rules each table's own `access` reads as, kept with the value they
/// were read from: a request checks a table's rules without reading them
/// again while its `access` stays the same.
final class OwnAccessRules: Sendable {
    private let read = Mutex<[String: (access: JSONObject, rules: TableAccessRules)]>([:])
    static let capacity = 10_000

    /// The rules `access`, table `id`'s, reads as; nil when it does not read.
    func rules(of id: String, _ access: JSONObject) -> TableAccessRules? {
        if let kept = read.withLock({ $0[id] }), kept.access == access { return kept.rules }
        guard let rules = try? TableAccessRules(access) else { return nil }
        read.withLock { kept in
            // Deleted tables' rules go with the rest now and then: the store
            // holds `--max-tables` (1,000 by default) at a time.
            if kept.count >= Self.capacity { kept.removeAll() }
            kept[id] = (access, rules)
        }
        return rules
    }
}

/// What the routes that write a table's `access` check (docs/ACCESS.md,
/// "Access per table"): that it reads as rules; 422 otherwise, with the
/// policy parser's reason at `$.access`.
enum TableAccessCheck {
    /// Refuses `table`'s `access` when it does not read as rules.
    static func validate(_ table: Table) throws {
        guard let access = table.access else { return }
        do throws(AccessFileError) {
            _ = try TableAccessRules(access)
        } catch {
            throw TableServerError.invalid(
                ValidationError(issues: [ValidationIssue(path: "$.access", message: error.reason)]))
        }
    }
}
