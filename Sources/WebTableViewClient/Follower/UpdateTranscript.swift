import TableModel

/// Text lines for a table and its updates, as `webtableview follow` prints
/// them: one line per section and row of a table, and one per deleted,
/// inserted, moved or reloaded section or row of an update, with its index path.
public enum UpdateTranscript {
    /// The table: a title line, then each section and its rows, indented.
    public static func lines(for table: Table) -> [String] {
        var lines = [
            "\(table.title ?? table.id) — version \(table.version), \(table.sections.count) sections, \(table.rowCount) rows"
        ]
        for (s, section) in table.sections.enumerated() {
            lines.append("section \(s)\(label(section.id, section.header)) — \(section.rows.count) rows")
            for (r, row) in section.rows.enumerated() {
                lines.append("  \(TableIndexPath(s, r))\(label(row.id, row.text))")
            }
        }
        return lines
    }

    /// The update: a line naming the version and animation, then one line per
    /// operation (index paths before the update for deletes, reloads and move
    /// sources, after it for inserts and move targets). A reload names the version.
    public static func lines(for update: TableUpdate) -> [String] {
        guard let batch = update.batch else { return ["version \(update.version): the whole table"] }
        var lines = ["version \(update.version) (\(batch.animation.rawValue))"]
        for index in batch.deleteSections { lines.append("  delete section \(index)") }
        for item in batch.reloadSections {
            lines.append("  reload section \(item.at)\(label(item.section.id, item.section.header))")
        }
        for move in batch.moveSections { lines.append("  move section \(move.from) → \(move.to)") }
        for item in batch.insertSections {
            lines.append(
                "  insert section \(item.at)\(label(item.section.id, item.section.header)) with \(item.section.rows.count) rows"
            )
        }
        for indexPath in batch.deleteRows { lines.append("  delete row \(indexPath)") }
        for item in batch.reloadRows { lines.append("  reload row \(item.at)\(label(item.row.id, item.row.text))") }
        for move in batch.moveRows { lines.append("  move row \(move.from) → \(move.to)") }
        for item in batch.insertRows { lines.append("  insert row \(item.at)\(label(item.row.id, item.row.text))") }
        if let press = batch.press { lines.append("  press \(press.at)\(press.id.map { " \($0)" } ?? "")") }
        if batch.properties != nil { lines.append("  table properties: \(update.table.title ?? update.table.id)") }
        return lines
    }

    private static func label(_ id: String?, _ text: String?) -> String {
        let parts = [id, text.map { "\"\($0)\"" }].compactMap { $0 }
        return parts.isEmpty ? "" : " " + parts.joined(separator: " ")
    }
}
