import JSON

extension Section {
    /// Writes the section with all its rows, as docs/FORMAT.md shows it.
    public func writeJSON(to writer: inout JSONWriter) {
        writeOpening(to: &writer)
        rows.forEachRow(in: 0..<rows.count) { $0.writeJSON(to: &writer) }
        writer.endArray()
        writer.endObject()
    }

    /// Everything before the first row: the fields and `"rows":[`.
    func writeOpening(to writer: inout JSONWriter) {
        writer.beginObject()
        writeProperties(to: &writer)
        writer.key("rows")
        writer.beginArray()
    }

    /// Writes the section without its rows, plus `rowCount` (`GET .../sections`).
    public func writeSummaryJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writeProperties(to: &writer)
        writer.key("rowCount"); writer.integer(rows.count)
        writer.endObject()
    }

    private func writeProperties(to writer: inout JSONWriter) {
        writer.key("id"); writer.string(id)
        writer.key("header"); writer.string(header)
        writer.key("footer"); writer.string(footer)
        writer.key("indexTitle"); writer.string(indexTitle)
        if let groupValue {
            writer.key("groupValue"); writer.value(groupValue)
        }
    }

    /// The section's own members (`id`, `header`, `footer`, `indexTitle`)
    /// without its rows, as a JSON document: what a `PATCH` of it merges into.
    public var propertiesJSONBytes: [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writeProperties(to: &writer)
        writer.endObject()
        return writer.bytes
    }

    /// The section, with its rows, as a JSON document.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writeJSON(to: &writer)
        return writer.bytes
    }
}
