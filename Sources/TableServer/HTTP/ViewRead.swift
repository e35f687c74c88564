import MicroHTTP
import TableModel

extension HTTPRequest {
    /// Whether the request names any of a view's parameters (`q`, `filter…`, `sort`, `group`).
    var hasViewParameters: Bool {
        query.keys.contains { $0 == "q" || $0 == "sort" || $0 == "group" || $0.hasPrefix("filter") }
    }

    /// The view the query parameters describe (docs/API.md, "Views"); nil for the
    /// table itself. 400 naming the parameter and what it allows when one is wrong.
    func tableQuery() throws -> TableQuery? {
        guard hasViewParameters else { return nil }
        do throws(TableQueryError) {
            let view = try TableQuery(parameters: query)
            return view.isEmpty ? nil : view
        } catch {
            throw TableServerError.badRequest(
                type: "bad-view-parameter", detail: "query parameter \(error.parameter): \(error.detail)")
        }
    }
}

/// One read of a table or of a view of it: the snapshot, the view's query (in
/// the rows the requester is bound to), the entity tag, and the headers a
/// view's answer carries.
///
/// A view's answer has the table's documents with the view's rows and sections,
/// `Content-Location` naming the view in its one spelling (the parameters echoed,
/// docs/API.md, "Views"), and an `ETag` of the table's version and that spelling.
struct TableRead {
    let handle: TableHandle
    let snapshot: Table
    let query: TableQuery?
    /// The view the requester's reads are bound to (docs/ACCESS.md, "Rows
    /// per reader"), within which `query` is; nil for the whole table.
    let bound: TableQuery?

    /// `defaultView`: whether the table's `defaultView` applies when the URL
    /// names neither `sort` nor `group` (a table's page; docs/FORMAT.md, "Table").
    init(_ request: HTTPRequest, store: TableStore, defaultView: Bool = false) throws {
        var query = try request.tableQuery()
        handle = try store.handle(request.tableID)
        snapshot = handle.table
        if defaultView, let view = snapshot.defaultView, request.query["sort"] == nil, request.query["group"] == nil {
            var combined = query ?? TableQuery()
            combined.sort = view.sort
            combined.group = view.group
            query = combined
        }
        bound = BoundRows.current
        if let query {
            // The request's own parameters are checked, against the rows the
            // requester reads: the bound rows' fields may be no row's, and the
            // fields of rows it cannot see are not named.
            var seen = snapshot
            if let bound { seen = handle.views.view(bound, of: snapshot) }
            let missing = query.fieldsMissing(from: seen)
            if !missing.isEmpty {
                let names = seen.fieldNames
                let shown = names.prefix(20).map { "fields.\($0)" }.joined(separator: ", ")
                let has =
                    names.isEmpty
                    ? "its rows have no fields"
                    : "its rows have \(shown)\(names.count > 20 ? " and \(names.count - 20) more" : "")"
                throw TableServerError.badRequest(
                    type: "bad-view-parameter",
                    detail: "no row of the table has \(missing.map { "fields.\($0)" }.joined(separator: ", ")); \(has)")
            }
        }
        self.query = bound.map { $0.narrowed(by: query) } ?? query
    }

    var version: Int { snapshot.version }

    var etag: String {
        query.map { ETag.string(for: snapshot.version, view: $0) } ?? ETag.string(for: snapshot.version)
    }

    /// The rows and sections read: the view, or the table itself. O(n) for a
    /// view, the first time it is read at this version (`ViewCache`).
    func table() -> Table { query.map { handle.views.view($0, of: snapshot) } ?? snapshot }

    /// Rows `range` of section `s` of what is read, and how many it has. A
    /// view that selects rows without sorting or grouping them, not kept at
    /// this version, is read in place, copying only the page's rows
    /// (`TableQuery.page`); any other is derived (`table()`). A view that
    /// selects no row has no section, and its section 0 is an empty page, as a
    /// search with no results is an empty list, not an error.
    func page(_ range: Range<Int>, ofSection s: Int) throws -> ViewPage {
        if let query, query.readsPagesInPlace, !handle.views.holds(query, at: version) {
            let page = query.page(range, ofSection: s, in: snapshot)
            guard page.hasSection || s == 0 else {
                throw TableServerError.sectionNotFound(table: snapshot.id, section: s)
            }
            return page
        }
        let table = table()
        let isEmptyView = query != nil && table.sections.isEmpty && s == 0
        if isEmptyView { return ViewPage() }
        try table.requireSection(s)
        let rows = table.sections[s].rows
        let start = min(range.lowerBound, rows.count)
        let end = min(range.upperBound, rows.count)
        return ViewPage(hasSection: true, total: rows.count, rows: Array(rows.rows(in: start..<end)))
    }

    /// The 304 when `If-None-Match` names this answer's tag; nil otherwise.
    func notModified(_ request: HTTPRequest) -> HTTPResponse? {
        guard ETag.matches(request.headers["If-None-Match"], tag: etag) else { return nil }
        guard query != nil else { return Respond.notModified(version: snapshot.version) }
        return Respond.notModified(etag: etag, cacheControl: Respond.revalidate)
    }

    /// The tag of this read's CSV form: its JSON tag with `-csv` (`"7-csv"`, `"7-vHASH-csv"`).
    var csvTag: String { String(etag.dropLast()) + "-csv\"" }

    /// `&` and the view's parameters, to carry the view into a link; empty for the table.
    var linkParameters: String { query.map { "&" + $0.canonicalQuery } ?? "" }

    /// `response` as this read answers it: kept for later reads of the table
    /// while it is unchanged, or tagged and located as the view's.
    func answer(_ response: HTTPResponse, path: String) -> HTTPResponse {
        guard query != nil else { return response.reusable(while: handle.revision, at: snapshot.version) }
        return tagged(response, path: path)
    }

    /// `response` tagged and located as the view's; as it is for the table.
    func tagged(_ response: HTTPResponse, path: String) -> HTTPResponse {
        guard let query else { return response }
        var response = response
        response.headers.set("ETag", etag)
        response.headers.set("Content-Location", "\(path)?\(query.canonicalQuery)")
        return response
    }
}
