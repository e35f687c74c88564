import Mustache
import TableModel

/// What `section.mustache` reads for one section: its header and footer, the
/// HTML of the rows it draws (at most the row limit) and, when rows remain, a
/// `more` row.
struct SectionContext: MustacheParent {
    let index: Int
    let id: String?
    let header: String?
    /// A number group's value as written, which the page formats for the
    /// reader's locale; its header meanwhile groups its digits (`8,336,817`).
    let number: String?
    let footer: String?
    let rows: String
    let more: MoreContext?

    init(_ section: Section, at index: Int, tableID: String, view: String = "", rowLimit: Int, drawer: RowDrawer) {
        self.init(section, at: index, tableID: tableID, view: view, range: 0..<max(rowLimit, 0), drawer: drawer)
    }

    /// The section drawing only the rows in `range` (clamped to the section).
    init(_ section: Section, at index: Int, tableID: String, view: String = "", range: Range<Int>, drawer: RowDrawer) {
        let shown = range.clamped(to: 0..<section.rows.count)
        self.init(
            section, at: index, tableID: tableID, view: view, shown: shown,
            rows: drawer.rowsHTML(of: section, at: index, in: shown))
    }

    /// The section showing `rows`, the HTML of its rows in `shown` (or the marker
    /// `RowDrawer.render(_:rowsOf:at:in:context:)` writes them at); `view` is
    /// the view's parameters in their one spelling, which its `more` link keeps.
    init(_ section: Section, at index: Int, tableID: String, view: String = "", shown: Range<Int>, rows: String) {
        self.index = index
        id = section.id.map(HTMLEscaping.escape)
        number = section.groupNumber.map(HTMLEscaping.escape)
        header = (section.groupNumber.map(Formatting.groupedLiteral) ?? section.header).map(HTMLEscaping.escape)
        footer = section.footer.map(HTMLEscaping.escape)
        self.rows = rows
        more = MoreContext(
            tableID: tableID, section: index, offset: shown.upperBound, total: section.rows.count, view: view)
    }

    func child(named name: String) -> Any? {
        switch name {
        case "index": index
        case "id": id ?? false
        case "hasID": id != nil
        case "header": header ?? false
        case "hasHeader": header != nil
        case "number": number ?? false
        case "footer": footer ?? false
        case "hasFooter": footer != nil
        case "rows": rows
        case "more": more ?? false
        default: nil
        }
    }
}

/// What `rows.mustache` reads for a fragment of rows: their HTML and the `more` row.
struct FragmentContext: MustacheParent {
    let rows: String
    let more: MoreContext?

    func child(named name: String) -> Any? {
        switch name {
        case "rows": rows
        case "more": more ?? false
        default: nil
        }
    }
}

/// The `<tr class="more">` row after the rows drawn so far: where the next page
/// starts, and a plain link to the whole page of the next rows
/// (`GET /tables/{t}/sections/{s}?offset=`), so that the table reads to its end
/// without JavaScript.
struct MoreContext: MustacheParent {
    let section: Int
    let offset: Int
    let remaining: Int
    let href: String

    /// Nil when no row is left after `offset`. `view`: the view's parameters
    /// (docs/API.md, "Views"), kept by the link; empty for the table.
    init?(tableID: String, section: Int, offset: Int, total: Int, view: String = "") {
        guard offset < total else { return nil }
        self.section = section
        self.offset = offset
        remaining = total - offset
        href = HTMLEscaping.escape(
            "/tables/\(PathEscaping.segment(tableID))/sections/\(section)?offset=\(offset)"
                + (view.isEmpty ? "" : "&\(view)"))
    }

    func child(named name: String) -> Any? {
        switch name {
        case "section": section
        case "offset": offset
        case "remaining": Formatting.grouped(remaining)
        case "remainingCount": remaining
        case "label": "Show " + Formatting.count(remaining, "more row", "more rows")
        case "href": href
        default: nil
        }
    }
}

/// What `section-page.mustache` reads: one section's rows from an offset on, as
/// a page of its own.
struct SectionPageContext: MustacheParent {
    let title: String
    let style: TableStyle
    let range: String
    let tableHref: String
    let section: SectionContext

    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "style": style.rawValue
        case "range": range
        case "tableHref": tableHref
        case "section": section
        default: nil
        }
    }
}
