/// What an actor may do with a table (docs/ACCESS.md): each right includes
/// the ones before it.
public enum AccessRight: Int, Comparable, Sendable, CaseIterable {
    /// JSON, CSV, pages, the change feed and the event stream.
    case read = 1
    /// Rows, sections, selection and the table's properties.
    case edit
    /// Creating, replacing and deleting the table.
    case admin

    /// The right a policy file names (`"read"`, `"edit"`, `"admin"`).
    public init?(name: String) {
        switch name {
        case "read": self = .read
        case "edit": self = .edit
        case "admin": self = .admin
        default: return nil
        }
    }

    /// Its name in policy files and problem documents.
    public var name: String {
        switch self {
        case .read: "read"
        case .edit: "edit"
        case .admin: "admin"
        }
    }

    public static func < (lhs: AccessRight, rhs: AccessRight) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
