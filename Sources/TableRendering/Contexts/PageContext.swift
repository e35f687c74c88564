import Mustache
import TableModel

/// What `page.mustache` reads: the document around a rendered body.
struct PageContext: MustacheParent {
    /// Escaped.
    let title: String
    /// HTML rendered by another template.
    let body: String
    /// Classes of `<body>`, such as `table-page grouped`.
    let bodyClass: String
    /// Whether the navigation bar offers a way back: to the list of tables, or to `back`.
    let hasBackLink: Bool
    /// Escaped: where the back button leads and its title, when not to the list of tables.
    var back: (href: String, title: String)? = nil
    /// Escaped: where the navigation bar's export button downloads the table as CSV; nil for no button.
    let exportLink: String?
    /// The path the stylesheet and scripts are linked under (a path the
    /// server chose, never client text).
    let assets: String
    /// Who the page is drawn for.
    var session = PageSession.anyone

    func child(named name: String) -> Any? {
        switch name {
        case "assets": assets
        case "title": title
        case "body": body
        case "bodyClass": bodyClass
        case "hasBackLink": hasBackLink
        case "backHref": back?.href ?? "/"
        case "backTitle": back?.title ?? "Tables"
        case "exportLink": exportLink
        case "hasSession": session.name != nil
        case "sessionName": session.name.map(HTMLEscaping.escape)
        case "canSignOut": session.canSignOut
        case "readOnly": !session.canEdit
        default: nil
        }
    }
}

/// What `index.mustache` reads: the tables the server holds.
struct IndexContext: MustacheParent {
    let tables: [TableSummary]

    func child(named name: String) -> Any? {
        switch name {
        case "tables": tables
        case "hasTables": !tables.isEmpty
        case "count": Formatting.count(tables.count, "table", "tables")
        default: nil
        }
    }
}

/// One table in the list of `GET /`.
struct TableSummary: MustacheParent {
    let id: String
    let href: String
    let title: String
    let style: String
    let styleLabel: String
    let sections: String
    let rows: String
    let version: Int

    init(_ table: Table) {
        id = HTMLEscaping.escape(table.id)
        href = HTMLEscaping.escape("/tables/" + PathEscaping.segment(table.id))
        title = HTMLEscaping.escape(table.title ?? table.id)
        style = table.style.rawValue
        styleLabel =
            switch table.style {
            case .plain: "Plain"
            case .grouped: "Grouped"
            case .insetGrouped: "Inset grouped"
            }
        sections = Formatting.count(table.sections.count, "section", "sections")
        rows = Formatting.count(table.rowCount, "row", "rows")
        version = table.version
    }

    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "href": href
        case "title": title
        case "style": style
        case "styleLabel": styleLabel
        case "sectionCount": sections
        case "rowCount": rows
        case "version": version
        default: nil
        }
    }
}

/// What `error.mustache` reads.
struct ErrorContext: MustacheParent {
    let status: Int
    let title: String
    let detail: String

    func child(named name: String) -> Any? {
        switch name {
        case "status": status
        case "title": title
        case "detail": detail
        default: nil
        }
    }
}
