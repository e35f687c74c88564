/// Who a page is drawn for, as the page shows it (docs/ACCESS.md, "Share
/// links"): the name in the navigation bar, whether it offers sign-out, and
/// whether it offers editing at all.
public struct PageSession: Hashable, Sendable {
    /// Who is signed in, as the page names them (escaped when drawn); nil for nobody.
    public let name: String?
    /// Whether they signed in by a cookie, which the page's Sign Out forgets.
    public let canSignOut: Bool
    /// Whether the page offers editing; false draws the read-only page
    /// (`data-read-only` on `<body>`, which the page's script reads).
    public let canEdit: Bool

    public init(name: String?, canSignOut: Bool, canEdit: Bool) {
        self.name = name
        self.canSignOut = canSignOut
        self.canEdit = canEdit
    }

    /// A server without an access policy: nobody named, editing offered.
    public static let anyone = PageSession(name: nil, canSignOut: false, canEdit: true)
}
