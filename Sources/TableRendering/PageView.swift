import TableModel

/// What a table's page shows besides the table: the view its URL names
/// (docs/API.md, "Views"; nil for the table itself) and the style the URL
/// picked (`?style=`; nil for the table's own).
public struct PageView: Sendable, Hashable {
    public var view: TableQuery?
    public var pickedStyle: TableStyle?

    public init(view: TableQuery? = nil, pickedStyle: TableStyle? = nil) {
        self.view = view
        self.pickedStyle = pickedStyle
    }
}
