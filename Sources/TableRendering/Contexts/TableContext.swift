import Mustache
import TableModel

/// What `table.mustache` reads: the table's attributes, its sections, the section
/// index strip (plain style only) and the links of the style picker.
struct TableContext: MustacheParent {
    let id: String
    let title: String
    let style: TableStyle
    let version: Int
    let header: String?
    let footer: String?
    let allowsSelection: Bool
    let allowsMultipleSelection: Bool
    let sections: SectionSequence
    let sectionIndex: [SectionIndexEntry]
    let styleLinks: [StyleLink]
    /// When set, drawn in place of the sections (see `PagePieces`).
    let sectionsPlaceholder: MustacheLambda?
    /// The search bar, and the view the page shows (docs/API.md, "Views").
    let search: SearchContext
    /// The view's parameters in their one spelling (`data-view`), empty for the table.
    let viewQuery: String
    /// The server's life (`data-life`), empty when its versions outlive the process.
    let life: String

    init(
        _ table: Table, style: TableStyle, rowLimits: [Int], drawer: RowDrawer, page: PageView = PageView(),
        life: String = "", sectionsPlaceholder: MustacheLambda? = nil
    ) {
        id = HTMLEscaping.escape(table.id)
        title = HTMLEscaping.escape(table.title ?? table.id)
        self.style = style
        version = table.version
        header = table.header.map(HTMLEscaping.escape)
        footer = table.footer.map(HTMLEscaping.escape)
        allowsSelection = table.allowsSelection
        allowsMultipleSelection = table.allowsMultipleSelection
        sections = SectionSequence(
            table: table, view: page.view?.canonicalQuery ?? "", rowLimits: rowLimits, drawer: drawer)
        // The section index strip is hidden while searching, as UIKit's is.
        let searching = !(page.view?.words.isEmpty ?? true)
        sectionIndex = style == .plain && !searching ? SectionIndexEntry.entries(table.sections) : []
        styleLinks = TableStyle.allCases.map { StyleLink($0, current: $0 == style) }
        self.sectionsPlaceholder = sectionsPlaceholder
        search = SearchContext(table: table, style: page.pickedStyle, view: page.view)
        viewQuery = HTMLEscaping.escape(page.view?.canonicalQuery ?? "")
        self.life = HTMLEscaping.escape(life)
    }

    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "style": style.rawValue
        case "version": version
        case "header": header ?? false
        case "hasHeader": header != nil
        case "footer": footer ?? false
        case "hasFooter": footer != nil
        case "allowsSelection": allowsSelection ? "true" : "false"
        case "allowsMultipleSelection": allowsMultipleSelection ? "true" : "false"
        case "sections": sectionsPlaceholder ?? sections
        case "hasSectionIndex": !sectionIndex.isEmpty
        case "sectionIndex": sectionIndex
        case "styleLinks": styleLinks
        case "search": search
        case "viewQuery": viewQuery
        case "life": life
        case "viewPrefix": viewQuery.isEmpty ? "" : viewQuery + "&amp;"
        default: nil
        }
    }
}

/// The sections' contexts, made as the template walks them.
struct SectionSequence: MustacheSequence {
    let table: Table
    /// The view's parameters, which `more` links keep; empty for the table.
    let view: String
    /// How many rows to draw of each section.
    let rowLimits: [Int]
    let drawer: RowDrawer

    func makeIterator() -> Iterator { Iterator(sequence: self, position: 0) }

    struct Iterator: IteratorProtocol {
        let sequence: SectionSequence
        var position: Int

        mutating func next() -> SectionContext? {
            let sections = sequence.table.sections
            guard position < sections.count else { return nil }
            defer { position += 1 }
            return SectionContext(
                sections[position], at: position, tableID: sequence.table.id, view: sequence.view,
                rowLimit: sequence.rowLimits[position], drawer: sequence.drawer)
        }
    }
}

/// One entry of the section index strip: a title and the section it jumps to.
struct SectionIndexEntry: MustacheParent {
    let section: Int
    let title: String

    /// One entry per section with an index title; a title equal to the one before
    /// it is shown once and jumps to the first of those sections.
    static func entries(_ sections: [Section]) -> [SectionIndexEntry] {
        var entries: [SectionIndexEntry] = []
        var previous: String?
        for (index, section) in sections.enumerated() {
            guard let title = section.indexTitle, !title.isEmpty, title != previous else { continue }
            previous = title
            entries.append(SectionIndexEntry(section: index, title: HTMLEscaping.escape(title)))
        }
        return entries
    }

    func child(named name: String) -> Any? {
        switch name {
        case "section": section
        case "title": title
        default: nil
        }
    }
}

/// A link of the style picker: `?style=…`, marked when it is the style shown.
struct StyleLink: MustacheParent {
    let style: TableStyle
    let current: Bool

    init(_ style: TableStyle, current: Bool) {
        self.style = style
        self.current = current
    }

    func child(named name: String) -> Any? {
        switch name {
        case "name": style.rawValue
        case "label":
            switch style {
            case .plain: "Plain"
            case .grouped: "Grouped"
            case .insetGrouped: "Inset Grouped"
            }
        case "current": current
        default: nil
        }
    }
}
