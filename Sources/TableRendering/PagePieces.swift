import TableModel

/// The HTML document of `GET /tables/{t}` in UTF-8 pieces, drawn as they are
/// iterated: the document up to the first section, one piece per section, then
/// the rest. Made by ``TableRenderer/pagePieces(_:style:view:rowLimit:pageRowLimit:)``;
/// joined, the pieces are ``TableRenderer/page(_:style:rowLimit:pageRowLimit:)``.
///
/// A value, safe to hand to another thread; each iterator draws its own sections.
public struct PagePieces: Sequence, Sendable {
    /// Drawn by the table template where its sections go, then cut out: `<` never
    /// survives HTML escaping, so no escaped value can hold it.
    static let sectionsMarker = "<\u{1}sections\u{2}>"
    /// The body of `{{#sections}}` that streaming draws section by section.
    static let sectionsTemplate = "{{>section}}"

    let head: [UInt8]
    let tail: [UInt8]
    let table: Table
    /// How many rows to draw of each section.
    let rowLimits: [Int]
    let renderer: TableRenderer
    let sectionCount: Int
    /// The view's parameters, which `more` links keep; empty for the table.
    var view = ""

    public func makeIterator() -> Iterator {
        Iterator(pieces: self, drawer: renderer.drawer(for: table))
    }

    /// Walks the pieces, drawing each section when it is reached.
    public struct Iterator: IteratorProtocol {
        let pieces: PagePieces
        let drawer: RowDrawer
        /// -1 for the head, then section indices, then the tail.
        var position = -1

        public mutating func next() -> [UInt8]? {
            defer { position += 1 }
            switch position {
            case -1:
                return pieces.head
            case pieces.sectionCount:
                return pieces.tail
            case let section where section < pieces.sectionCount:
                return pieces.renderer.sectionBytes(
                    pieces.table, at: section, rowLimit: pieces.rowLimits[section], drawer: drawer, view: pieces.view)
            default:
                return nil
            }
        }
    }
}

/// The text of the `{{#sections}}` block, as the sections placeholder saw it.
final class InnerTemplate {
    var text: String?
}
