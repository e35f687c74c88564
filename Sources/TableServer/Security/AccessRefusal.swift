import MicroHTTP
import TableAccess

/// The answers of a request its requester may not make (RFC 6750, and the
/// problem format of docs/API.md): they name the right missing, never more.
enum AccessRefusal {
    /// 401 with `WWW-Authenticate: Bearer`: no credential, and `right` is needed.
    static func challenge(needing right: AccessRight, on table: String?) -> HTTPResponse {
        refusal(
            status: 401, type: "unauthorized", detail: "this needs a bearer token with the \(what(right, table))",
            challenge: "Bearer realm=\"webtableview\"")
    }

    /// 401 for a credential that is not valid, saying why without quoting it.
    static func invalidToken(_ reason: String) -> HTTPResponse {
        refusal(
            status: 401, type: "invalid-token", detail: reason,
            challenge: "Bearer realm=\"webtableview\", error=\"invalid_token\"")
    }

    /// 403: the credential is valid, its rights are not enough.
    static func forbidden(needing right: AccessRight, on table: String?) -> HTTPResponse {
        refusal(
            status: 403, type: "missing-right", detail: "this needs the \(what(right, table))",
            challenge: "Bearer realm=\"webtableview\", error=\"insufficient_scope\"")
    }

    /// 403 for what a requester bound to a view of `table` may not do: the
    /// table's change feed, and edits but of its rows by id.
    static func boundToView(_ table: String) -> HTTPResponse {
        refusal(
            status: 403, type: "bound-to-view",
            detail:
                "your reads of table \"\(table)\" are a view of it: you edit its rows by id (…/items/{rowID}), and follow its changes, in its index paths, from …/events",
            challenge: "Bearer realm=\"webtableview\", error=\"insufficient_scope\"")
    }

    /// 403 for `/metrics` without an operator's credential (401 without any).
    static func notOperator(_ requester: Requester) -> HTTPResponse {
        let detail = "metrics are for operators: the edit token, or a token with admin on every table (*)"
        return requester == .anonymous
            ? refusal(status: 401, type: "unauthorized", detail: detail, challenge: "Bearer realm=\"webtableview\"")
            : refusal(
                status: 403, type: "missing-right", detail: detail,
                challenge: "Bearer realm=\"webtableview\", error=\"insufficient_scope\"")
    }

    private static func what(_ right: AccessRight, _ table: String?) -> String {
        "\(right.name) right on " + (table.map { "table \"\($0)\"" } ?? "every table (*)")
    }

    private static func refusal(status: Int, type: String, detail: String, challenge: String) -> HTTPResponse {
        .problem(status: status, type: type, detail: detail, headers: ["WWW-Authenticate": challenge])
    }
}
