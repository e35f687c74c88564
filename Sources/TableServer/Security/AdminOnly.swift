import MicroHTTP
import TableAccess

extension RouteContext {
    /// Whether the current request administers `table` (docs/ACCESS.md):
    /// under a policy, when its requester has the `admin` right on it;
    /// without one, when it carries the edit token, or when the server has
    /// none (anyone may do anything). An admin is shown who made each change
    /// of the table (`actor`) and the table's `access`.
    func administers(_ table: String, _ request: HTTPRequest) -> Bool {
        if let access { return access.grant(of: Requester.current, on: table)?.right == .admin }
        return token?.authorizes(request.headers["Authorization"]) ?? true
    }

    /// `response`, made for an admin with what only admins see: never sent
    /// again as a kept answer, and kept by no cache (under a policy,
    /// `PrivateAnswer` marks it so).
    func forAdminOnly(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.reuse = nil
        if access == nil {
            response.headers.set("Cache-Control", "no-store")
            response.headers.add("Vary", "Authorization")
        }
        return response
    }
}
