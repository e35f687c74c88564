import JSON
import TableModel

/// A table's JSON with only the members that differ from their defaults
/// (docs/FORMAT.md): what `webtableview import` writes unless asked for
/// `--full`, a fraction of the size for the same table once read back.
public enum CompactJSON {
    public static func bytes(of table: Table) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64 * table.rowCount + 256)
        writer.beginObject()
        writer.key("id"); writer.string(table.id)
        if let title = table.title { writer.key("title"); writer.string(title) }
        if table.style != .plain { writer.key("style"); writer.string(table.style.rawValue) }
        if let header = table.header { writer.key("header"); writer.string(header) }
        if let footer = table.footer { writer.key("footer"); writer.string(footer) }
        if table.rowHeight != 44 { writer.key("rowHeight"); writer.double(table.rowHeight) }
        if !table.allowsSelection { writer.key("allowsSelection"); writer.bool(false) }
        if table.allowsMultipleSelection { writer.key("allowsMultipleSelection"); writer.bool(true) }
        if let view = table.defaultView { writer.key("defaultView"); view.writeDefaultViewJSON(to: &writer) }
        if let source = table.source { writer.key("source"); source.writeJSON(to: &writer) }
        writer.key("sections")
        writer.beginArray()
        for section in table.sections { write(section, to: &writer) }
        writer.endArray()
        writer.endObject()
        return writer.takeBytes()
    }

    private static func write(_ section: Section, to writer: inout JSONWriter) {
        writer.beginObject()
        if let id = section.id { writer.key("id"); writer.string(id) }
        if let header = section.header { writer.key("header"); writer.string(header) }
        if let footer = section.footer { writer.key("footer"); writer.string(footer) }
        if let indexTitle = section.indexTitle { writer.key("indexTitle"); writer.string(indexTitle) }
        writer.key("rows")
        writer.beginArray()
        for row in section.rows { write(row, to: &writer) }
        writer.endArray()
        writer.endObject()
    }

    private static func write(_ row: Row, to writer: inout JSONWriter) {
        let defaults = Row()
        writer.beginObject()
        if let id = row.id { writer.key("id"); writer.string(id) }
        if row.style != defaults.style { writer.key("style"); writer.string(row.style.rawValue) }
        writer.key("text"); writer.string(row.text)
        optional("detail", row.detail, to: &writer)
        optional("image", row.image, to: &writer)
        if row.accessory != defaults.accessory { writer.key("accessory"); writer.string(row.accessory.rawValue) }
        if let view = row.accessoryView { writer.key("accessoryView"); view.writeJSON(to: &writer) }
        if row.selectionStyle != defaults.selectionStyle {
            writer.key("selectionStyle"); writer.string(row.selectionStyle.rawValue)
        }
        if row.editingStyle != defaults.editingStyle {
            writer.key("editingStyle"); writer.string(row.editingStyle.rawValue)
        }
        if row.canEdit != defaults.canEdit { writer.key("canEdit"); writer.bool(row.canEdit) }
        if row.canMove != defaults.canMove { writer.key("canMove"); writer.bool(row.canMove) }
        if row.deleteTitle != defaults.deleteTitle { writer.key("deleteTitle"); writer.string(row.deleteTitle) }
        if row.indentationLevel != 0 { writer.key("indentationLevel"); writer.integer(row.indentationLevel) }
        if let height = row.height { writer.key("height"); writer.double(height) }
        if row.selected { writer.key("selected"); writer.bool(true) }
        optional("template", row.template, to: &writer)
        if !row.fields.isEmpty { writer.key("fields"); writer.object(row.fields) }
        optional("link", row.link, to: &writer)
        optional("detailLink", row.detailLink, to: &writer)
        writer.endObject()
    }

    private static func optional(_ key: String, _ value: String?, to writer: inout JSONWriter) {
        if let value {
            writer.key(key)
            writer.string(value)
        }
    }
}
