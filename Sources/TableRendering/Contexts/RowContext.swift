import JSON
import Mustache
import TableModel

/// What a row needs from its table, worked out once per render rather than per row.
struct RowDefaults: Sendable {
    /// The table's `rowHeight` as CSS pixels.
    let rowHeight: String
    /// `height:<rowHeight>px`, the style of most rows.
    let rowStyle: String
    /// `rowStyle` as UTF-8.
    let rowStyleBytes: [UInt8]
    let allowsSelection: Bool
    /// Names of the custom cell templates that exist (`cells/NAME.mustache`).
    let customCells: Set<String>
    /// `/tables/{t}/rows/`: where a row's detail page is, before its id (docs/API.md, "Pages").
    let detailPagePrefix: String

    init(table: Table, customCells: Set<String>) {
        self.rowHeight = Formatting.cssPixels(table.rowHeight) ?? "44"
        self.rowStyle = "height:\(rowHeight)px"
        self.rowStyleBytes = Array(rowStyle.utf8)
        self.allowsSelection = table.allowsSelection
        self.customCells = customCells
        self.detailPagePrefix = RowDetail.pathPrefix(tableID: table.id)
    }
}

/// Everything about a row that the templates can branch on: two rows of one
/// shape differ only in the values of `RowValues`. Rows are drawn by rendering
/// `row.mustache` once per shape (see `RowStamp`).
struct RowShape: Hashable {
    var style: CellStyle
    var accessory: Accessory
    /// The kind of the row's `accessoryView`, drawn instead of `accessory`.
    var accessoryView: AccessoryView.Kind?
    /// A switch accessory view's value and whether it can be flipped.
    var switchOn: Bool
    var switchEnabled: Bool
    var editingStyle: EditingStyle
    var selectionStyle: SelectionStyle
    var canEdit: Bool
    var canMove: Bool
    var selected: Bool
    /// The table allows selection, so the row carries `aria-selected`.
    var selectable: Bool
    var hasID: Bool
    var hasDetail: Bool
    var hasImage: Bool
    var hasLink: Bool
    var hasDetailLink: Bool
    /// Not read by the templates as such: they keep rows apart for a template
    /// that tests a value with `{{#empty(text)}}`.
    var idIsEmpty: Bool
    var textIsEmpty: Bool
    var detailIsEmpty: Bool
    var deleteTitleIsEmpty: Bool
    var accessoryTitleIsEmpty: Bool
    /// The partial that draws the content: `cell-<style>`, or `cells/NAME` for a
    /// custom row whose template exists (otherwise `cell-default`).
    var cellTemplate: String

    /// ` selected selection-none has-image has-link`, as they apply.
    var stateClasses: String {
        var classes = ""
        if selected { classes += " selected" }
        if selectionStyle == .none { classes += " selection-none" }
        if hasImage, style != .value2 { classes += " has-image" }
        if hasLink { classes += " has-link" }
        if let accessoryView { classes += " accessory-view-\(accessoryView.rawValue)" }
        return classes
    }
}

/// The values that vary between rows of one shape, HTML-escaped; absent ones are "".
struct RowValues {
    var section = ""
    var row = ""
    var id = ""
    var text = ""
    var detail = ""
    var image = ""
    var link = ""
    var detailLink = ""
    var deleteTitle = ""
    var cssStyle = ""
    /// A badge's text or a button's title.
    var accessoryTitle = ""

    subscript(slot: RowSlot) -> String {
        switch slot {
        case .section: section
        case .row: row
        case .id: id
        case .text: text
        case .detail: detail
        case .image: image
        case .link: link
        case .detailLink: detailLink
        case .deleteTitle: deleteTitle
        case .cssStyle: cssStyle
        case .accessoryTitle: accessoryTitle
        }
    }
}

/// The names of `RowValues`' members, in the order of their markers.
enum RowSlot: Int, CaseIterable {
    case section, row, id, text, detail, image, link, detailLink, deleteTitle, cssStyle, accessoryTitle
}

extension Row {
    /// This row's shape under `defaults`: what the templates branch on. URLs count
    /// only when `SafeURL` allows them.
    func shape(defaults: RowDefaults) -> RowShape {
        var switchOn = false, switchEnabled = false
        if case .switch(let isOn, let isEnabled) = accessoryView { (switchOn, switchEnabled) = (isOn, isEnabled) }
        let drawn = RowDetail.drawing(self)
        let cellTemplate: String =
            switch drawn.style {
            case .default: "cell-default"
            case .subtitle: "cell-subtitle"
            case .value1: "cell-value1"
            case .value2: "cell-value2"
            case .custom:
                if let template, defaults.customCells.contains(template) {
                    TemplateName.customCellPrefix + template
                } else {
                    "cell-default"
                }
            }
        return RowShape(
            style: drawn.style, accessory: drawn.accessory, accessoryView: accessoryView?.kind, switchOn: switchOn,
            switchEnabled: switchEnabled, editingStyle: editingStyle, selectionStyle: selectionStyle,
            canEdit: canEdit, canMove: canMove, selected: selected, selectable: defaults.allowsSelection,
            hasID: id != nil, hasDetail: drawn.detail != nil, hasImage: image.map(SafeURL.isAllowed) ?? false,
            hasLink: drawn.opensDetailPage || (link.map(SafeURL.isAllowed) ?? false),
            hasDetailLink: detailLink.map(SafeURL.isAllowed) ?? false,
            idIsEmpty: id?.isEmpty ?? true, textIsEmpty: text.isEmpty, detailIsEmpty: drawn.detail?.isEmpty ?? true,
            deleteTitleIsEmpty: deleteTitle.isEmpty, accessoryTitleIsEmpty: accessoryTitle?.isEmpty ?? true,
            cellTemplate: cellTemplate)
    }

    /// This row's values at `indexPath` as strings, HTML-escaped, for the template
    /// itself (`RowContext`); `RowStamp` writes the same values without them.
    func values(at indexPath: TableIndexPath, shape: RowShape, defaults: RowDefaults) -> RowValues {
        var values = RowValues()
        values.section = String(indexPath.section)
        values.row = String(indexPath.row)
        values.id = id.map(HTMLEscaping.escape) ?? ""
        values.text = HTMLEscaping.escape(text)
        let drawn = RowDetail.drawing(self)
        values.detail = drawn.detail.map(HTMLEscaping.escape) ?? ""
        values.image = shape.hasImage ? image.map(HTMLEscaping.escape) ?? "" : ""
        let link = drawn.opensDetailPage ? id.map { defaults.detailPagePrefix + PathEscaping.segment($0) } : self.link
        values.link = shape.hasLink ? link.map(HTMLEscaping.escape) ?? "" : ""
        values.detailLink = shape.hasDetailLink ? detailLink.map(HTMLEscaping.escape) ?? "" : ""
        values.deleteTitle = HTMLEscaping.escape(deleteTitle)
        values.accessoryTitle = accessoryTitle.map(HTMLEscaping.escape) ?? ""
        values.cssStyle = cssStyle(defaults: defaults)
        return values
    }

    /// A badge's text or a button's title; nil for other accessory views.
    var accessoryTitle: String? {
        switch accessoryView {
        case .badge(let text): text
        case .button(let title): title
        case .switch, .activityIndicator, nil: nil
        }
    }

    /// The row's `style` attribute: its height, and its indentation when it has one.
    func cssStyle(defaults: RowDefaults) -> String {
        let height = self.height.flatMap(Formatting.cssPixels)
        let indentation = min(max(indentationLevel, 0), 1000)
        if height == nil, indentation == 0 { return defaults.rowStyle }
        let css = "height:\(height ?? defaults.rowHeight)px"
        return indentation > 0 ? css + ";--indent:\(indentation)" : css
    }
}

/// What `row.mustache`, `accessory.mustache` and the cell templates read for one
/// row. Every string is HTML-escaped already (templates print it with `{{{…}}}`).
/// Absent values answer `false`, so that a lookup never climbs to the section's
/// or the table's value of the same name.
struct RowContext: MustacheParent {
    let shape: RowShape
    let values: RowValues
    let fields: JSONObject

    func child(named name: String) -> Any? {
        switch name {
        case "section": values.section
        case "row": values.row
        case "id": shape.hasID ? values.id : false
        case "hasID": shape.hasID
        case "style": shape.style.rawValue
        case "accessory": shape.accessory.rawValue
        case "stateClasses": shape.stateClasses
        case "text": values.text
        case "detail": shape.hasDetail ? values.detail : false
        case "hasDetail": shape.hasDetail
        case "image": shape.hasImage ? values.image : false
        case "hasImage": shape.hasImage
        case "link": shape.hasLink ? values.link : false
        case "hasLink": shape.hasLink
        case "detailLink": shape.hasDetailLink ? values.detailLink : false
        case "hasDetailLink": shape.hasDetailLink
        case "editingStyle": shape.editingStyle.rawValue
        case "selectionStyle": shape.selectionStyle.rawValue
        case "canEdit": shape.canEdit ? "true" : "false"
        case "canMove": shape.canMove ? "true" : "false"
        case "deleteTitle": values.deleteTitle
        case "ariaSelected": shape.selectable ? (shape.selected ? "true" : "false") : false
        case "hasAriaSelected": shape.selectable
        case "cssStyle": values.cssStyle
        case "cellTemplate": shape.cellTemplate
        case "hasAccessory": shape.accessory != .none && shape.accessoryView == nil
        case "hasAccessoryView": shape.accessoryView != nil
        case "switch": shape.accessoryView == .switch
        case "switchOn": shape.switchOn
        case "switchEnabled": shape.switchEnabled
        case "badge": shape.accessoryView == .badge
        case "activityIndicator": shape.accessoryView == .activityIndicator
        case "button": shape.accessoryView == .button
        case "accessoryTitle": values.accessoryTitle
        case "infoButton": shape.accessory == .detailButton || shape.accessory == .detailDisclosureButton
        case "chevron": shape.accessory == .disclosureIndicator || shape.accessory == .detailDisclosureButton
        case "checkmark": shape.accessory == .checkmark
        case "fields": JSONObjectContext(fields)
        default: nil
        }
    }
}
