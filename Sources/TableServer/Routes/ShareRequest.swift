import JSON
import TableAccess

/// The body of `POST /api/tables/{t}/share` (docs/ACCESS.md, "Share links"):
/// `{"right": "read" | "edit", "expiresIn": seconds}`, `expiresIn` from 1 to
/// 30 days, a day when left out. Anything else is refused, naming what.
struct ShareRequest {
    /// A day: how long a link lives when `expiresIn` is left out.
    static let defaultLife = 24 * 3600

    let right: AccessRight
    let life: Int

    init(_ body: JSONValue) throws(TableServerError) {
        guard case .object(let object) = body else { throw Self.bad("the body is a JSON object") }
        if let unknown = object.keys.first(where: { $0 != "right" && $0 != "expiresIn" }) {
            throw Self.bad("unknown member \"\(unknown)\": a share link has \"right\" and \"expiresIn\"")
        }
        guard case .string(let name)? = object["right"], let right = AccessRight(name: name), right <= .edit else {
            throw Self.bad("\"right\" is \"read\" or \"edit\"")
        }
        switch object["expiresIn"] {
        case nil: life = Self.defaultLife
        case .integer(let seconds)? where (1...ShareGrant.longestLife).contains(seconds): life = seconds
        default:
            throw Self.bad("\"expiresIn\" is a whole number of seconds from 1 to \(ShareGrant.longestLife) (30 days)")
        }
        self.right = right
    }

    private static func bad(_ detail: String) -> TableServerError {
        .badRequest(type: "bad-share-link", detail: detail)
    }
}
