import JSON
import TableModel
import TableRendering

/// Turns an applied batch into the `Change` the feed keeps: its JSON, and its
/// Server-Sent-Events event carrying the HTML of what it inserts or reloads —
/// `update`, or `press` for a batch that reports a press of an accessory button.
struct ChangeEvents: Sendable {
    let renderer: TableRenderer
    /// The server's life, which every event id carries (`ServerLife.cursor`).
    let life: ServerLife

    /// `table` is the table right after the batch was applied, at `version`.
    func change(version: Int, batch: Batch, table: Table) -> Change {
        change(json: batch.changeJSONBytes(version: version), version: version, batch: batch, table: table)
    }

    /// The same, from the change's `{"version", "batch"}` already written by
    /// `Batch.changeJSONBytes(version:)`: the event's data is that object with
    /// one more member, `html`, so the batch is encoded once.
    func change(json: [UInt8], version: Int, batch: Batch, table: Table) -> Change {
        let data = eventData(json: json, batch: batch, table: table)
        let event = FeedEvent.event(batch.press == nil ? "update" : "press", id: life.cursor(version), data: data)
        return Change(version: version, json: json, event: event)
    }

    /// The `update` of a view (docs/API.md, "Views"): for the table's change to
    /// `version`, the view's batches, each `{"version", "batch", "html"}` with
    /// its HTML drawn from the view after it (`LiveView.Step`), applied in
    /// order to the view as it was at version `since`.
    func viewUpdate(version: Int, since: Int, steps: [LiveView.Step]) -> [UInt8] {
        var data = Array(#"{"version":\#(version),"since":\#(since),"steps":["#.utf8)
        for (offset, step) in steps.enumerated() {
            if offset > 0 { data.append(UInt8(ascii: ",")) }
            data += eventData(json: step.batch.changeJSONBytes(version: version), batch: step.batch, table: step.view)
        }
        data += Array("]}".utf8)
        return FeedEvent.event("update", id: life.cursor(version), data: data)
    }

    /// A change's `{"version", "batch"}` with one more member, `html`, so the batch is encoded once.
    private func eventData(json: [UInt8], batch: Batch, table: Table) -> [UInt8] {
        precondition(json.last == UInt8(ascii: "}"), "the change's JSON is one object")
        var data: [UInt8] = []
        data.reserveCapacity(json.count + 64)
        data.append(contentsOf: json[..<(json.count - 1)])
        data.append(contentsOf: #","html":"#.utf8)
        if batch.insertsOrReloads {
            var writer = JSONWriter()
            writeHTML(of: batch, table: table, to: &writer)
            data.append(contentsOf: writer.bytes)
        } else {
            data.append(contentsOf: #"{"sections":[],"rows":[]}"#.utf8)
        }
        data.append(UInt8(ascii: "}"))
        return data
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

extension Batch {
    /// Whether the batch inserts or reloads a section or a row: only those carry HTML in their event.
    fileprivate var insertsOrReloads: Bool {
        !(insertSections.isEmpty && reloadSections.isEmpty && insertRows.isEmpty && reloadRows.isEmpty)
    }
}
