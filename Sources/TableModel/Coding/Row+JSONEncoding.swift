import JSON

extension Row {
    /// Writes the row as docs/FORMAT.md shows it: every field, defaults filled in, `null`
    /// for absent optionals.
    public func writeJSON(to writer: inout JSONWriter) {
        let keys = RowJSONKeys.shared
        writer.beginObject()
        writer.key(keys.id); writer.string(id)
        writer.key(keys.style); writer.string(style.rawValue)
        writer.key(keys.text); writer.string(text)
        writer.key(keys.detail); writer.string(detail)
        writer.key(keys.image); writer.string(image)
        writer.key(keys.accessory); writer.string(accessory.rawValue)
        writer.key(keys.accessoryView)
        if let accessoryView { accessoryView.writeJSON(to: &writer) } else { writer.null() }
        writer.key(keys.selectionStyle); writer.string(selectionStyle.rawValue)
        writer.key(keys.editingStyle); writer.string(editingStyle.rawValue)
        writer.key(keys.canEdit); writer.bool(canEdit)
        writer.key(keys.canMove); writer.bool(canMove)
        writer.key(keys.deleteTitle); writer.string(deleteTitle)
        writer.key(keys.indentationLevel); writer.integer(indentationLevel)
        writer.key(keys.height); writer.double(height)
        writer.key(keys.selected); writer.bool(selected)
        writer.key(keys.template); writer.string(template)
        writer.key(keys.fields); writer.object(fields)
        writer.key(keys.link); writer.string(link)
        writer.key(keys.detailLink); writer.string(detailLink)
        writer.endObject()
    }

    /// The row as a JSON document.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writeJSON(to: &writer)
        return writer.bytes
    }
}

/// The keys of a row's JSON, escaped once (a page of rows writes each a thousand times).
private final class RowJSONKeys: Sendable {
    static let shared = RowJSONKeys()

    let id = JSONKey("id")
    let style = JSONKey("style")
    let text = JSONKey("text")
    let detail = JSONKey("detail")
    let image = JSONKey("image")
    let accessory = JSONKey("accessory")
    let accessoryView = JSONKey("accessoryView")
    let selectionStyle = JSONKey("selectionStyle")
    let editingStyle = JSONKey("editingStyle")
    let canEdit = JSONKey("canEdit")
    let canMove = JSONKey("canMove")
    let deleteTitle = JSONKey("deleteTitle")
    let indentationLevel = JSONKey("indentationLevel")
    let height = JSONKey("height")
    let selected = JSONKey("selected")
    let template = JSONKey("template")
    let fields = JSONKey("fields")
    let link = JSONKey("link")
    let detailLink = JSONKey("detailLink")
}

extension AccessoryView {
    /// Writes the accessory view as docs/FORMAT.md shows it: `type` and that type's fields.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); writer.string(kind.rawValue)
        switch self {
        case .switch(let isOn, let isEnabled):
            writer.key("on"); writer.bool(isOn)
            writer.key("enabled"); writer.bool(isEnabled)
        case .badge(let text):
            writer.key("text"); writer.string(text)
        case .activityIndicator:
            break
        case .button(let title):
            writer.key("title"); writer.string(title)
        }
        writer.endObject()
    }
}
