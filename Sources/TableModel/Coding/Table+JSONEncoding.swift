import JSON

extension Table {
    /// Writes the Table document of docs/FORMAT.md: every field, defaults filled in,
    /// `version` included, `null` for absent optionals. `access` only
    /// `withAccess`: for the durable logs and the table's admins, never
    /// anyone else (docs/ACCESS.md, "Access per table").
    public func writeJSON(to writer: inout JSONWriter, withAccess: Bool = false) {
        writeOpening(to: &writer, withAccess: withAccess)
        for section in sections { section.writeJSON(to: &writer) }
        writer.endArray()
        writer.endObject()
    }

    /// Everything before the first section: the fields, `version`, `"sections":[`.
    func writeOpening(to writer: inout JSONWriter, withAccess: Bool = false) {
        writer.beginObject()
        writeProperties(to: &writer)
        if withAccess, let access { writer.key("access"); writer.object(access) }
        writer.key("version"); writer.integer(version)
        writer.key("sections")
        writer.beginArray()
    }

    /// Writes the table's entry in `GET /api/tables`: id, title, style,
    /// sectionCount, rowCount, version.
    public func writeSummaryJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id"); writer.string(id)
        writer.key("title"); writer.string(title)
        writer.key("style"); writer.string(style.rawValue)
        writer.key("sectionCount"); writer.integer(sections.count)
        writer.key("rowCount"); writer.integer(rowCount)
        writer.key("version"); writer.integer(version)
        writer.endObject()
    }

    private func writeProperties(to writer: inout JSONWriter) {
        writer.key("id"); writer.string(id)
        writer.key("title"); writer.string(title)
        writer.key("style"); writer.string(style.rawValue)
        writer.key("header"); writer.string(header)
        writer.key("footer"); writer.string(footer)
        writer.key("rowHeight"); writer.double(rowHeight)
        writer.key("allowsSelection"); writer.bool(allowsSelection)
        writer.key("allowsMultipleSelection"); writer.bool(allowsMultipleSelection)
        if let defaultView { writer.key("defaultView"); defaultView.writeDefaultViewJSON(to: &writer) }
        if let source { writer.key("source"); source.writeJSON(to: &writer) }
    }

    /// Room for the Table document's JSON, from the row count: a writer reserved
    /// so grows at most once or twice instead of doubling from a few hundred bytes.
    public var estimatedJSONCount: Int { 512 + rowCount * 400 }

    /// The Table document as JSON, sized up front from the row count.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter(reservingCapacity: estimatedJSONCount)
        writeJSON(to: &writer)
        return writer.bytes
    }

    /// The Table document as a durable log records it: with `access`.
    public var recordedJSONBytes: [UInt8] {
        var writer = JSONWriter(reservingCapacity: estimatedJSONCount)
        writeJSON(to: &writer, withAccess: true)
        return writer.bytes
    }
}
