import JSON
import TableModel
import TableRendering

/// Turns an applied batch into the `Change` the feed keeps: its JSON, and its
/// Server-Sent-Events event carrying the HTML of what it inserts or reloads —
/// `update`, or `press` for a batch that reports a press of an accessory button.
struct ChangeEvents: Sendable {
    let renderer: TableRenderer

    /// `table` is the table right after the batch was applied, at `version`.
    func change(version: Int, batch: Batch, table: Table) -> Change {
        var writer = JSONWriter()
        Self.writeChange(version: version, batch: batch, to: &writer)
        let json = writer.bytes

        writer = JSONWriter()
        writer.beginObject()
        writer.key("version"); writer.integer(version)
        writer.key("batch"); batch.writeJSON(to: &writer)
        writer.key("html"); writeHTML(of: batch, table: table, to: &writer)
        writer.endObject()
        let event = FeedEvent.event(batch.press == nil ? "update" : "press", id: version, data: writer.bytes)
        return Change(version: version, json: json, event: event)
    }

    static func writeChange(version: Int, batch: Batch, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("version"); writer.integer(version)
        writer.key("batch"); batch.writeJSON(to: &writer)
        writer.endObject()
    }

    /// `{"sections": [{"at", "html"}], "rows": [{"at": [s, r], "html"}]}` for every
    /// inserted or reloaded section and row, rendered from the table after the batch.
    private func writeHTML(of batch: Batch, table: Table, to writer: inout JSONWriter) {
        // Reloaded items are named by their position before the batch; the HTML is
        // addressed by where they are after it, like inserted items.
        let positions = FinalPositions(batch)
        let sections = batch.insertSections.map(\.at) + batch.reloadSections.map { positions.section($0.at) }
        let rows = batch.insertRows.map(\.at) + batch.reloadRows.map { positions.row($0.at) }
        writer.beginObject()
        writer.key("sections")
        writer.beginArray()
        for section in sections.sorted() where table.sections.indices.contains(section) {
            writer.beginObject()
            writer.key("at"); writer.integer(section)
            writer.key("html"); writer.string(renderer.section(table, at: section))
            writer.endObject()
        }
        writer.endArray()
        writer.key("rows")
        writer.beginArray()
        for indexPath in rows.sorted() where table.row(at: indexPath) != nil {
            writer.beginObject()
            writer.key("at")
            writer.beginArray(); writer.integer(indexPath.section); writer.integer(indexPath.row); writer.endArray()
            writer.key("html"); writer.string(renderer.row(table, at: indexPath))
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}
