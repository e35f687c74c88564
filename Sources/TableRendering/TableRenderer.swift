import Mustache
import TableModel

/// Draws tables as HTML, the way `UITableView` draws them, from the Mustache
/// templates of one folder (`--templates`), read and parsed once at start-up.
///
/// The markup is docs/FORMAT.md, "The HTML": `<table class="table-view {style}">`, one
/// `<tbody class="section">` per section with a `<th scope="rowgroup">` header
/// row, one `<tr class="cell …">` per row. Every text and attribute value is
/// HTML-escaped before a template sees it, and URLs (`image`, `link`,
/// `detailLink`) are written only when they are `http:`, `https:` or a path.
///
/// Rows are drawn by `row.mustache`, whose content comes from `cell-<style>.mustache`;
/// a `custom` row is drawn by `cells/<template>.mustache` and, when no such
/// template exists, as a `default` cell. As in UIKit, a `default` cell shows no
/// detail and a `value2` cell no image.
///
/// A value, safe to share between threads; rendering takes no lock.
public struct TableRenderer: Sendable {
    private let templates: TemplateSet
    /// Where pages link the stylesheet and scripts from: `/public`, or the
    /// versioned folder the server keeps immutable (`/assets/<hash>`).
    private let assets: String
    /// Pages' heads and tails drawn so far.
    private let pageHeads = PageHeads()
    /// The server's life (docs/API.md, "Caching"), a table page's `data-life`:
    /// empty when its versions outlive the process.
    private let life: String
    /// Whether rows are written by their shape's stamp (`RowDrawer`); false
    /// renders every row through the template, so that `make bench`'s ablation
    /// step measures what the stamps buy.
    private let stampsRows: Bool

    /// Loads every `*.mustache` file below `templatesDirectory`.
    ///
    /// - Throws: `TemplateLoadingError` naming the folder, a missing template or
    ///   the file, line and column of a syntax error.
    public init(
        templatesDirectory: String, assets: String = "/public", life: String = "", stampsRows: Bool = true
    ) throws {
        templates = try TemplateSet(directory: templatesDirectory)
        self.assets = assets
        self.life = life
        self.stampsRows = stampsRows
    }

    /// The whole HTML document of `GET /tables/{t}`: at most `rowLimit` rows of
    /// each section and `pageRowLimit` rows in all (sections past them show
    /// none), each section's drawn rows followed by a `<tr class="more">` row
    /// linking to its next rows: a first window. The page of a table with a
    /// thousand sections, or 200,000 rows, stays small (about 80 KB) and quick
    /// to start; the live page loads the rest as the reader scrolls.
    ///
    /// - Parameter style: overrides the table's own style (`?style=`).
    /// - Parameter view: the view `table` is (docs/API.md, "Views"), for the search bar.
    /// - Parameter session: who the page is drawn for.
    public func page(
        _ table: Table, style: TableStyle? = nil, view: TableQuery? = nil, session: PageSession = .anyone,
        rowLimit: Int = 1000, pageRowLimit: Int = 200
    ) -> String {
        String(
            decoding: Array(
                pagePieces(
                    table, style: style, view: view, session: session, rowLimit: rowLimit,
                    pageRowLimit: pageRowLimit
                ).joined()), as: UTF8.self)
    }

    /// How many rows the page draws of each section: `rowLimit` at most, and
    /// `pageRowLimit` over all sections, in order.
    static func rowLimits(_ table: Table, rowLimit: Int, pageRowLimit: Int) -> [Int] {
        var left = max(pageRowLimit, 0)
        return table.sections.map { section in
            let limit = min(max(rowLimit, 0), left)
            left -= min(section.rows.count, limit)
            return limit
        }
    }

    /// The document of ``page(_:style:rowLimit:pageRowLimit:)`` as UTF-8 pieces, each drawn only
    /// when it is asked for: the document up to the first section, then one piece
    /// per section, then the rest. A server can send the first bytes of a large
    /// table before it has drawn the last row. A page for someone named
    /// (`session`) is drawn afresh, never kept.
    public func pagePieces(
        _ table: Table, style picked: TableStyle? = nil, view: TableQuery? = nil, session: PageSession = .anyone,
        rowLimit: Int = 1000, pageRowLimit: Int = 200
    ) -> PagePieces {
        let style = picked ?? table.style
        let page = PageView(view: view, pickedStyle: picked)
        let rowLimits = Self.rowLimits(table, rowLimit: rowLimit, pageRowLimit: pageRowLimit)
        let key = PageHeads.Key(table, style: style, page: page, readOnly: !session.canEdit)
        let keeps = session.name == nil
        if keeps, let kept = pageHeads.page(for: key) {
            return PagePieces(
                head: kept.head, tail: kept.tail, table: table, rowLimits: rowLimits, renderer: self,
                sectionCount: table.sections.count, view: view?.canonicalQuery ?? "")
        }
        let drawer = drawer(for: table)
        let marker = PagePieces.sectionsMarker
        let inner = InnerTemplate()
        let context = TableContext(
            table, style: style, rowLimits: rowLimits, drawer: drawer, page: page, life: life,
            sectionsPlaceholder: MustacheLambda { text in
                inner.text = text
                return marker
            })
        let whole = Array(
            document(
                title: context.title, body: templates.render(context, "table"),
                bodyClass: "table-page \(style.rawValue)", backLink: true, exporting: table, view: view,
                session: session
            ).utf8)
        guard inner.text == PagePieces.sectionsTemplate,
            let split = RowDrawer.onlyOccurrence(of: Array(marker.utf8), in: whole)
        else {
            // A table template that draws its sections some other way: one piece, drawn the usual way.
            let context = TableContext(
                table, style: style, rowLimits: rowLimits, drawer: drawer, page: page, life: life)
            let page = document(
                title: context.title, body: templates.render(context, "table"),
                bodyClass: "table-page \(style.rawValue)", backLink: true, exporting: table, view: view,
                session: session)
            return PagePieces(
                head: Array(page.utf8), tail: [], table: table, rowLimits: rowLimits, renderer: self, sectionCount: 0)
        }
        let head = Array(whole[..<split.lowerBound])
        let tail = Array(whole[split.upperBound...])
        if keeps { pageHeads.keep(head: head, tail: tail, for: key) }
        return PagePieces(
            head: head, tail: tail, table: table, rowLimits: rowLimits, renderer: self,
            sectionCount: table.sections.count,
            view: view?.canonicalQuery ?? "")
    }

    /// The HTML document of `GET /`: every table with a link, its title, style
    /// and counts; who is signed in (`session`).
    public func index(_ tables: [Table], session: PageSession = .anyone) -> String {
        let body = templates.render(IndexContext(tables: tables.map(TableSummary.init)), "index")
        return document(title: "Tables", body: body, bodyClass: "index-page", backLink: false, session: session)
    }

    /// `<tr>` rows of section `section` for the rows in `range` (clamped to the
    /// section), followed by a `<tr class="more">` row when the section has rows
    /// after the range, so that a fragment carries on like the page did. Empty
    /// when the section does not exist.
    /// `view`: the view `table` is (docs/API.md, "Views"), which the `more` row keeps.
    public func rows(_ table: Table, section: Int, range: Range<Int>, view: TableQuery? = nil) -> String {
        guard table.sections.indices.contains(section) else { return "" }
        let rows = table.sections[section].rows
        let clamped = range.clamped(to: 0..<rows.count)
        let more = MoreContext(
            tableID: table.id, section: section, offset: clamped.upperBound, total: rows.count,
            view: view?.canonicalQuery ?? "")
        let bytes = drawer(for: table).render("rows", rowsOf: table.sections[section], at: section, in: clamped) {
            FragmentContext(rows: $0, more: more)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The HTML document of `GET /tables/{t}/sections/{s}?offset=`: the rows of
    /// section `section` in `range` (clamped to the section) under the section's
    /// header, then a `more` row linking to the page after, as the `more` row of
    /// the table's page links here. The table is not live (no `data-table`):
    /// its rows start at an offset. Empty when the section does not exist.
    /// `session`: who the page is drawn for.
    public func sectionPage(
        _ table: Table, section: Int, range: Range<Int>, view: TableQuery? = nil, session: PageSession = .anyone
    ) -> String {
        guard table.sections.indices.contains(section) else { return "" }
        let rows = table.sections[section].rows
        let shown = range.clamped(to: 0..<rows.count)
        let title = HTMLEscaping.escape(table.title ?? table.id)
        let total = Formatting.grouped(rows.count)
        let described =
            switch shown.count {
            case 0: "No rows after row \(Formatting.grouped(shown.lowerBound)) of \(total)"
            case 1: "Row \(Formatting.grouped(shown.upperBound)) of \(total)"
            default:
                "Rows \(Formatting.grouped(shown.lowerBound + 1))–\(Formatting.grouped(shown.upperBound)) of \(total)"
            }
        let viewQuery = view.map { $0.isEmpty ? "" : "?\($0.canonicalQuery)" } ?? ""
        let tableHref = HTMLEscaping.escape("/tables/\(PathEscaping.segment(table.id))\(viewQuery)#section-\(section)")
        let value = table.sections[section]
        let body = drawer(for: table).render("section-page", rowsOf: value, at: section, in: shown) { rows in
            SectionPageContext(
                title: title, style: table.style, range: described, tableHref: tableHref,
                section: SectionContext(
                    value, at: section, tableID: table.id, view: view?.canonicalQuery ?? "", shown: shown, rows: rows))
        }
        return document(
            title: title, body: String(decoding: body, as: UTF8.self),
            bodyClass: "table-page \(table.style.rawValue)", backLink: true, exporting: table, session: session)
    }

    /// One `<tbody class="section">`, as inserted or reloaded by a live update;
    /// like `page`, it draws at most `rowLimit` rows. Empty when the section
    /// does not exist.
    public func section(_ table: Table, at section: Int, rowLimit: Int = 1000) -> String {
        guard table.sections.indices.contains(section) else { return "" }
        return self.section(table, at: section, rowLimit: rowLimit, drawer: drawer(for: table))
    }

    func section(_ table: Table, at section: Int, rowLimit: Int, drawer: RowDrawer) -> String {
        String(decoding: sectionBytes(table, at: section, rowLimit: rowLimit, drawer: drawer), as: UTF8.self)
    }

    /// ``section(_:at:rowLimit:)`` as UTF-8, its rows written straight into the bytes.
    func sectionBytes(_ table: Table, at section: Int, rowLimit: Int, drawer: RowDrawer, view: String = "") -> [UInt8] {
        let value = table.sections[section]
        let shown = (0..<max(rowLimit, 0)).clamped(to: 0..<value.rows.count)
        return drawer.render("section", rowsOf: value, at: section, in: shown) { rows in
            SectionContext(value, at: section, tableID: table.id, view: view, shown: shown, rows: rows)
        }
    }

    /// One `<tr class="cell">`, drawn as the page draws its rows (`RowDrawer`:
    /// the template's stamp for the row's shape, the template itself for custom
    /// cells and rows with fields). Empty when there is no row at `indexPath`.
    public func row(_ table: Table, at indexPath: TableIndexPath) -> String {
        guard let row = table.row(at: indexPath) else { return "" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        drawer(for: table).append(row, at: indexPath, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``row(_:at:)`` rendered through `row.mustache` by swift-mustache itself,
    /// without the stamp: the reference the tests hold the drawn rows to.
    package func rowThroughTemplate(_ table: Table, at indexPath: TableIndexPath) -> String {
        guard let row = table.row(at: indexPath) else { return "" }
        let defaults = RowDefaults(table: table, customCells: templates.customCells)
        let shape = row.shape(defaults: defaults)
        let values = row.values(at: indexPath, shape: shape, defaults: defaults)
        return templates.render(RowContext(shape: shape, values: values, fields: row.fields), "row")
    }

    /// The HTML document of `GET /tables/{t}/rows/{id}`: the row at `indexPath`
    /// as a record (docs/API.md, "Pages"), its fields in order as value1 cells,
    /// name and value; the back button leads to the table at that row
    /// (`/tables/{t}#section-S-row-R`). Empty when there is no row there.
    /// `session`: who the page is drawn for.
    public func rowDetail(_ table: Table, at indexPath: TableIndexPath, session: PageSession = .anyone) -> String {
        guard let row = table.row(at: indexPath) else { return "" }
        let context = RowDetailContext(table, row: row)
        let tableHref = "/tables/\(PathEscaping.segment(table.id))#section-\(indexPath.section)-row-\(indexPath.row)"
        return document(
            title: context.title, body: templates.render(context, "row-detail"), bodyClass: "row-detail-page",
            backLink: true, back: (HTMLEscaping.escape(tableHref), HTMLEscaping.escape(table.title ?? table.id)),
            session: session)
    }

    /// A small HTML document for an error, such as 404 for an unknown table.
    public func errorPage(status: Int, title: String, detail: String) -> String {
        let title = HTMLEscaping.escape(title)
        let context = ErrorContext(status: status, title: title, detail: HTMLEscaping.escape(detail))
        return document(title: title, body: templates.render(context, "error"), bodyClass: "error-page", backLink: true)
    }

    func drawer(for table: Table) -> RowDrawer {
        RowDrawer(
            templates: templates, defaults: RowDefaults(table: table, customCells: templates.customCells),
            usesStamps: stampsRows)
    }

    /// The page around `body`; a table's page links its CSV export from the navigation bar,
    /// of the `view` the page shows when it shows one (the page's search bar keeps it so).
    /// `back`: the back button's place and title, escaped, when not the list of tables.
    private func document(
        title: String, body: String, bodyClass: String, backLink: Bool,
        back: (href: String, title: String)? = nil, exporting table: Table? = nil, view: TableQuery? = nil,
        session: PageSession = .anyone
    ) -> String {
        let viewParameters = view.map { "&" + $0.canonicalQuery } ?? ""
        let exportLink = table.map {
            HTMLEscaping.escape("/api/tables/\(PathEscaping.segment($0.id))?format=csv\(viewParameters)")
        }
        return templates.render(
            PageContext(
                title: title, body: body, bodyClass: bodyClass, hasBackLink: backLink, back: back,
                exportLink: exportLink, assets: assets, session: session),
            "page")
    }
}
