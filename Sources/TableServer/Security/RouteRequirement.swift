import MicroHTTP
import TableAccess

/// What a route needs of its requester under an access policy, found from
/// the route's method and pattern where the route is registered, so that no
/// route is left out (docs/ACCESS.md, "Routes").
enum RouteRequirement: Equatable {
    /// Nothing: health, readiness, OpenAPI, static files, opening a share
    /// link (its key is its credential) and signing out.
    case open
    /// Anyone; the answer lists only the tables the requester may read
    /// (`GET /api/tables`, the index page).
    case listing
    /// A right on the table the path names (`{t}`).
    case table(AccessRight)
    /// `admin` on the table `POST /api/tables` makes: the one `?table-id=`
    /// names, else every table (`*`), as the id is in the body.
    case creation
    /// An operator's (`/metrics`).
    case operatorOnly

    init(method: HTTPMethod, pattern: String) {
        let reads = method == .GET || method == .HEAD
        switch (pattern, reads) {
        case ("/metrics", _): self = .operatorOnly
        case ("/", true), ("/api/tables", true): self = .listing
        case ("/api/tables", false): self = .creation
        case ("/api/tables/{t}", false) where method == .PUT || method == .DELETE: self = .table(.admin)
        case ("/api/tables/{t}/share", false): self = .table(.admin)
        case ("/tables/{t}/share", true): self = .open
        case _ where pattern.contains("{t}"): self = .table(reads ? .read : .edit)
        default: self = .open
        }
    }
}
