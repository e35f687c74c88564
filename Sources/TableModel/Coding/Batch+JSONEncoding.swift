import JSON

extension Batch {
    /// Writes the batch in the normalised form that changes are published in
    /// (docs/API.md, "A batch"): only non-empty lists, each sorted by position (moves by their
    /// `from`), inserted and reloaded sections and rows in full, `properties`
    /// when it changes something, `press` when it reports one, `animation` always, `expect` never.
    /// The properties' `access` only `withAccess`: in the durable logs, never
    /// on the feed or a stream (docs/ACCESS.md, "Access per table").
    public func writeJSON(to writer: inout JSONWriter, withAccess: Bool = false) {
        writer.beginObject()
        if !deleteSections.isEmpty {
            writer.key("deleteSections")
            writer.array { for index in deleteSections.sorted() { $0.integer(index) } }
        }
        writeSections("insertSections", insertSections, to: &writer)
        writeSections("reloadSections", reloadSections, to: &writer)
        if !moveSections.isEmpty {
            writer.key("moveSections")
            writer.array { writer in
                for move in moveSections.sorted(by: { $0.from < $1.from }) {
                    writer.object { writer in
                        writer.key("from"); writer.integer(move.from)
                        writer.key("to"); writer.integer(move.to)
                    }
                }
            }
        }
        if !deleteRows.isEmpty {
            writer.key("deleteRows")
            writer.array { for indexPath in deleteRows.sorted() { $0.indexPath(indexPath) } }
        }
        writeRows("insertRows", insertRows, to: &writer)
        writeRows("reloadRows", reloadRows, to: &writer)
        if !moveRows.isEmpty {
            writer.key("moveRows")
            writer.array { writer in
                for move in moveRows.sorted(by: { $0.from < $1.from }) {
                    writer.object { writer in
                        writer.key("from"); writer.indexPath(move.from)
                        writer.key("to"); writer.indexPath(move.to)
                    }
                }
            }
        }
        if let properties, withAccess ? !properties.isEmpty : !properties.shownEmpty {
            writer.key("properties"); properties.writeJSON(to: &writer, withAccess: withAccess)
        }
        if let press {
            writer.key("press")
            writer.object { writer in
                writer.key("at"); writer.indexPath(press.at)
                if let id = press.id { writer.key("id"); writer.string(id) }
            }
        }
        writer.key("animation"); writer.string(animation.rawValue)
        writer.endObject()
    }

    private func writeSections(_ key: String, _ items: [SectionItem], to writer: inout JSONWriter) {
        guard !items.isEmpty else { return }
        writer.key(key)
        writer.array { writer in
            for item in items.sorted(by: { $0.at < $1.at }) {
                writer.object { writer in
                    writer.key("at"); writer.integer(item.at)
                    writer.key("section"); item.section.writeJSON(to: &writer)
                }
            }
        }
    }

    private func writeRows(_ key: String, _ items: [RowItem], to writer: inout JSONWriter) {
        guard !items.isEmpty else { return }
        writer.key(key)
        writer.array { writer in
            for item in items.sorted(by: { $0.at < $1.at }) {
                writer.object { writer in
                    writer.key("at"); writer.indexPath(item.at)
                    writer.key("row"); item.row.writeJSON(to: &writer)
                }
            }
        }
    }

    /// Writes the change this batch makes as `version`: `{"version": 7, "batch": {...}}`.
    public func writeChangeJSON(version: Int, to writer: inout JSONWriter, withAccess: Bool = false) {
        writer.beginObject()
        writer.key("version"); writer.integer(version)
        writer.key("batch"); writeJSON(to: &writer, withAccess: withAccess)
        writer.endObject()
    }

    /// The normalised batch as a JSON document.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writeJSON(to: &writer)
        return writer.bytes
    }

    /// The change `{"version": 7, "batch": {...}}` as a JSON document; with
    /// the properties' `access` for a durable log (`withAccess`).
    public func changeJSONBytes(version: Int, withAccess: Bool = false) -> [UInt8] {
        var writer = JSONWriter()
        writeChangeJSON(version: version, to: &writer, withAccess: withAccess)
        return writer.bytes
    }
}

extension TableProperties {
    /// Writes the properties that are set; a cleared `title`, `header`, `footer`,
    /// `defaultView`, `source` or (`withAccess`) `access` is `null`.
    public func writeJSON(to writer: inout JSONWriter, withAccess: Bool = false) {
        writer.beginObject()
        if let title { writer.key("title"); writer.string(title) }
        if let style { writer.key("style"); writer.string(style.rawValue) }
        if let header { writer.key("header"); writer.string(header) }
        if let footer { writer.key("footer"); writer.string(footer) }
        if let rowHeight { writer.key("rowHeight"); writer.double(rowHeight) }
        if let allowsSelection { writer.key("allowsSelection"); writer.bool(allowsSelection) }
        if let allowsMultipleSelection { writer.key("allowsMultipleSelection"); writer.bool(allowsMultipleSelection) }
        if let defaultView {
            writer.key("defaultView")
            if let defaultView { defaultView.writeDefaultViewJSON(to: &writer) } else { writer.null() }
        }
        if let source {
            writer.key("source")
            if let source { source.writeJSON(to: &writer) } else { writer.null() }
        }
        if withAccess, let access {
            writer.key("access")
            if let access { writer.object(access) } else { writer.null() }
        }
        writer.endObject()
    }
}

extension JSONWriter {
    /// Writes `[section, row]`.
    public mutating func indexPath(_ indexPath: TableIndexPath) {
        beginArray()
        integer(indexPath.section)
        integer(indexPath.row)
        endArray()
    }
}
