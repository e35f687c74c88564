import TableAccess
import TableRendering

extension RouteContext {
    /// Who the current requester is as a page shows it (docs/ACCESS.md,
    /// "Share links"): a bearer JWT's `sub`, "shared link: read" or "…: edit"
    /// for a share link's cookie (which Sign Out forgets), "edit token";
    /// editing offered only with the edit right on `table` (on every table
    /// for the list of tables). Without a policy, as it always was.
    func pageSession(on table: String?) -> PageSession {
        guard let access else { return .anyone }
        let requester = Requester.current
        let canEdit = table.map { (access.policy.right(of: requester, on: $0) ?? .read) >= .edit } ?? true
        return switch requester {
        case .anonymous: PageSession(name: nil, canSignOut: false, canEdit: canEdit)
        case .editToken: PageSession(name: "edit token", canSignOut: false, canEdit: canEdit)
        case .bearer(let claims): PageSession(name: claims.subject ?? "signed in", canSignOut: false, canEdit: canEdit)
        case .share(let share):
            PageSession(name: "shared link: \(share.right.name)", canSignOut: true, canEdit: canEdit)
        }
    }
}
