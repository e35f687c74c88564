import JSON

/// One row of a section: the content of the cell UIKit would dequeue for it.
///
/// Every property has the default of docs/FORMAT.md, so `Row(text: "Hello")` is a valid row.
public struct Row: Sendable, Hashable {
    /// Optional; unique within the table when given.
    public var id: String?
    public var style: CellStyle
    public var text: String
    public var detail: String?
    /// URL of an image drawn left of the text.
    public var image: String?
    public var accessory: Accessory
    /// A control drawn instead of `accessory` when set (`UITableViewCell.accessoryView`).
    public var accessoryView: AccessoryView?
    public var selectionStyle: SelectionStyle
    public var editingStyle: EditingStyle
    /// `tableView(_:canEditRowAt:)`.
    public var canEdit: Bool
    /// `tableView(_:canMoveRowAt:)`.
    public var canMove: Bool
    /// `tableView(_:titleForDeleteConfirmationButtonForRowAt:)`.
    public var deleteTitle: String
    public var indentationLevel: Int
    /// Overrides the table's `rowHeight` when set.
    public var height: Double?
    public var selected: Bool
    /// With style `custom`: the cell template's name (`Templates/cells/NAME.mustache`).
    public var template: String?
    /// With style `custom`: values the template reads.
    public var fields: JSONObject
    /// URL the row opens when selected (a segue).
    public var link: String?
    /// URL the accessory button opens (`accessoryButtonTappedForRowWith`).
    public var detailLink: String?

    public init(
        id: String? = nil,
        style: CellStyle = .default,
        text: String = "",
        detail: String? = nil,
        image: String? = nil,
        accessory: Accessory = .none,
        accessoryView: AccessoryView? = nil,
        selectionStyle: SelectionStyle = .default,
        editingStyle: EditingStyle = .delete,
        canEdit: Bool = true,
        canMove: Bool = true,
        deleteTitle: String = "Delete",
        indentationLevel: Int = 0,
        height: Double? = nil,
        selected: Bool = false,
        template: String? = nil,
        fields: JSONObject = JSONObject(),
        link: String? = nil,
        detailLink: String? = nil
    ) {
        self.id = id
        self.style = style
        self.text = text
        self.detail = detail
        self.image = image
        self.accessory = accessory
        self.accessoryView = accessoryView
        self.selectionStyle = selectionStyle
        self.editingStyle = editingStyle
        self.canEdit = canEdit
        self.canMove = canMove
        self.deleteTitle = deleteTitle
        self.indentationLevel = indentationLevel
        self.height = height
        self.selected = selected
        self.template = template
        self.fields = fields
        self.link = link
        self.detailLink = detailLink
    }
}
