import JSON
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
        return try? TableAccessRules(access)
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
