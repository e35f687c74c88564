import JSON

extension Row {
    /// Writes the row as docs/FORMAT.md shows it: every field, defaults filled in, `null`
    /// for absent optionals.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id"); writer.string(id)
        writer.key("style"); writer.string(style.rawValue)
        writer.key("text"); writer.string(text)
        writer.key("detail"); writer.string(detail)
        writer.key("image"); writer.string(image)
        writer.key("accessory"); writer.string(accessory.rawValue)
        writer.key("accessoryView")
        if let accessoryView { accessoryView.writeJSON(to: &writer) } else { writer.null() }
        writer.key("selectionStyle"); writer.string(selectionStyle.rawValue)
        writer.key("editingStyle"); writer.string(editingStyle.rawValue)
        writer.key("canEdit"); writer.bool(canEdit)
        writer.key("canMove"); writer.bool(canMove)
        writer.key("deleteTitle"); writer.string(deleteTitle)
        writer.key("indentationLevel"); writer.integer(indentationLevel)
        writer.key("height"); writer.double(height)
        writer.key("selected"); writer.bool(selected)
        writer.key("template"); writer.string(template)
        writer.key("fields"); writer.object(fields)
        writer.key("link"); writer.string(link)
        writer.key("detailLink"); writer.string(detailLink)
        writer.endObject()
    }

    /// The row as a JSON document.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writeJSON(to: &writer)
        return writer.bytes
    }
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
