import JSON
import TableModel

extension IdentifiedBatch {
    /// The body of `POST /api/tables/{t}/batch-by-id` (docs/API.md, "Edits by id"):
    /// `edits` in order, `animation`, and `expect` when given.
    var jsonBytes: [UInt8] {
        TableClient.document { writer in
            writer.key("edits")
            writer.array { writer in
                for edit in edits { writer.object { edit.writeMembers(to: &$0) } }
            }
            writer.key("animation"); writer.string(animation.rawValue)
            if let expect {
                writer.key("expect")
                writer.object { writer in
                    if let sections = expect.sections { writer.key("sections"); writer.integer(sections) }
                    if let rows = expect.rows {
                        writer.key("rows")
                        writer.array { writer in for count in rows { writer.integer(count) } }
                    }
                }
            }
        }
    }
}

extension IdentifiedEdit {
    /// The edit's members, as one member of `edits` writes them.
    func writeMembers(to writer: inout JSONWriter) {
        switch self {
        case .insertItems(let rows, .end(let section)):
            writer.key("appendItems"); Self.write(rows, to: &writer)
            if let section { writer.key("toSection"); writer.string(section) }
        case .insertItems(let rows, let place):
            writer.key("insertItems"); Self.write(rows, to: &writer)
            place.writeMembers(to: &writer)
        case .deleteItems(let ids):
            writer.key("deleteItems"); Self.write(ids, to: &writer)
        case .moveItem(let id, let place):
            writer.key("moveItem"); writer.string(id)
            place.writeMembers(to: &writer)
        case .reloadItems(let rows):
            writer.key("reloadItems"); Self.write(rows, to: &writer)
        case .reconfigureItems(let rows):
            writer.key("reconfigureItems"); Self.write(rows, to: &writer)
        case .insertSections(let sections, .end):
            writer.key("appendSections")
            writer.array { writer in for section in sections { section.writeJSON(to: &writer) } }
        case .insertSections(let sections, let place):
            writer.key("insertSections")
            writer.array { writer in for section in sections { section.writeJSON(to: &writer) } }
            place.writeMembers(to: &writer)
        case .deleteSections(let ids):
            writer.key("deleteSections"); Self.write(ids, to: &writer)
        case .moveSection(let id, let place):
            writer.key("moveSection"); writer.string(id)
            place.writeMembers(to: &writer)
        case .reloadSections(let sections):
            writer.key("reloadSections")
            writer.array { writer in for section in sections { writer.object { section.writeTexts(to: &$0) } } }
        }
    }

    private static func write(_ rows: [Row], to writer: inout JSONWriter) {
        writer.array { writer in for row in rows { row.writeJSON(to: &writer) } }
    }

    private static func write(_ ids: [String], to writer: inout JSONWriter) {
        writer.array { writer in for id in ids { writer.string(id) } }
    }
}

extension IdentifiedEdit.ItemPlace {
    /// `beforeItem`, `afterItem` or `toSection`; nothing for the end of the last section.
    func writeMembers(to writer: inout JSONWriter) {
        switch self {
        case .before(let id): writer.key("beforeItem"); writer.string(id)
        case .after(let id): writer.key("afterItem"); writer.string(id)
        case .end(let section?): writer.key("toSection"); writer.string(section)
        case .end(nil): break
        }
    }
}

extension IdentifiedEdit.SectionPlace {
    /// `beforeSection` or `afterSection`; nothing for the end.
    func writeMembers(to writer: inout JSONWriter) {
        switch self {
        case .before(let id): writer.key("beforeSection"); writer.string(id)
        case .after(let id): writer.key("afterSection"); writer.string(id)
        case .end: break
        }
    }
}

extension Section {
    /// `id`, `header`, `footer` and `indexTitle`, without rows: a section reloaded by
    /// id keeps its rows (docs/API.md, "Edits by id").
    func writeTexts(to writer: inout JSONWriter) {
        writer.key("id"); writer.string(id)
        writer.key("header"); writer.string(header)
        writer.key("footer"); writer.string(footer)
        writer.key("indexTitle"); writer.string(indexTitle)
    }
}
