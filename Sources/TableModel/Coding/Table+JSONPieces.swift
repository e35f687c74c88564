import JSON

extension Table {
    /// The Table document of ``writeJSON(to:)`` in pieces of at most
    /// `rowsPerPiece` rows each, written as they are iterated: a large table is
    /// sent without ever being whole in memory. Joined, the pieces are
    /// ``jsonBytes``; with `access` only `withAccess` (as `writeJSON`).
    public func jsonPieces(rowsPerPiece: Int = 1000, withAccess: Bool = false) -> TableJSONPieces {
        var shown = self
        if !withAccess { shown.access = nil }
        return TableJSONPieces(table: shown, rowsPerPiece: max(1, rowsPerPiece))
    }
}

/// The pieces of one table's JSON document (see ``Table/jsonPieces(rowsPerPiece:)``).
/// A value, safe to hand to another thread: it holds its own copy of the table.
public struct TableJSONPieces: Sequence, Sendable {
    let table: Table
    let rowsPerPiece: Int

    public func makeIterator() -> Iterator {
        Iterator(table: table, rowsPerPiece: rowsPerPiece)
    }

    /// Writes the next piece when asked: the table's fields and the sections'
    /// opening, then rows `rowsPerPiece` at a time (closing each section and
    /// opening the next as it goes), then the closing brackets.
    public struct Iterator: IteratorProtocol {
        let table: Table
        let rowsPerPiece: Int
        var writer = JSONWriter()
        /// The section being written, and the next of its rows; nil before the head.
        var position: (section: Int, row: Int)?
        var isFinished = false

        init(table: Table, rowsPerPiece: Int) {
            self.table = table
            self.rowsPerPiece = rowsPerPiece
        }

        public mutating func next() -> [UInt8]? {
            guard !isFinished else { return nil }
            guard let (section, row) = position else {
                // `access` is the table's only when `jsonPieces` was asked to show it.
                table.writeOpening(to: &writer, withAccess: true)
                position = (0, 0)
                return writer.takeBytes()
            }
            guard section < table.sections.count else {
                writer.endArray()
                writer.endObject()
                isFinished = true
                return writer.takeBytes()
            }
            let rows = table.sections[section].rows
            if row == 0 {
                table.sections[section].writeOpening(to: &writer)
            }
            let end = Swift.min(rows.count, row + rowsPerPiece)
            rows.forEachRow(in: row..<end) { $0.writeJSON(to: &writer) }
            if end == rows.count {
                writer.endArray()
                writer.endObject()
                position = (section + 1, 0)
            } else {
                position = (section, end)
            }
            return writer.takeBytes()
        }
    }
}
