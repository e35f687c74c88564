import Mustache
import TableModel

/// What `search.mustache` reads: the search bar of a table's page, as
/// `UISearchController` draws it under the navigation bar, as a GET form so it
/// works without JavaScript (docs/API.md, "Views"). It keeps the view's other
/// parameters (`sort`, `group`, the filters) and the page's style as hidden fields.
struct SearchContext: MustacheParent {
    struct Hidden: MustacheParent {
        let name: String
        let value: String

        func child(named name: String) -> Any? {
            switch name {
            case "name": self.name
            case "value": value
            default: nil
            }
        }
    }

    let action: String
    let text: String
    let hidden: [Hidden]
    let searching: Bool
    let noResults: Bool
    /// The page without `q`: where Cancel leads.
    let cancelHref: String

    init(table: Table, style: TableStyle?, view: TableQuery?) {
        let path = "/tables/\(PathEscaping.segment(table.id))"
        action = HTMLEscaping.escape(path)
        let words = view?.words ?? []
        text = HTMLEscaping.escape(words.joined(separator: " "))
        var kept = (view?.canonicalItems ?? []).filter { $0.name != "q" }
        if let style { kept.append(("style", style.rawValue)) }
        hidden = kept.map { Hidden(name: HTMLEscaping.escape($0.name), value: HTMLEscaping.escape($0.value)) }
        searching = !words.isEmpty
        noResults = view?.selectsRows == true && table.rowCount == 0
        var withoutSearch = view ?? TableQuery()
        withoutSearch.words = []
        let rest =
            withoutSearch.canonicalQuery
            + (style.map { (withoutSearch.isEmpty ? "" : "&") + "style=\($0.rawValue)" } ?? "")
        cancelHref = HTMLEscaping.escape(rest.isEmpty ? path : "\(path)?\(rest)")
    }

    func child(named name: String) -> Any? {
        switch name {
        case "action": action
        case "text": text
        case "hidden": hidden
        case "searching": searching
        case "noResults": noResults
        case "cancelHref": cancelHref
        default: nil
        }
    }
}
