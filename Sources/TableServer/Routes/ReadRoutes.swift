import JSON
import MicroHTTP
import TableModel

/// Reading sections and rows: `numberOfSections`, `numberOfRowsInSection`, `cellForRowAt`.
struct ReadRoutes: RouteCollection {
    let context: RouteContext
    /// Rows per page when `limit` is not given, and the most one page may hold.
    static let defaultPageSize = 100
    static let maxPageSize = 1000

    func register(on routes: inout RouteBuilder) {
        routes.read("/api/tables/{t}/sections", numberOfSections)
        routes.read("/api/tables/{t}/sections/{s}/rows", numberOfRowsInSection)
        routes.read("/api/tables/{t}/sections/{s}/rows/{r}", cellForRowAt)
        routes.read("/api/tables/{t}/items/{rowID}", cellForItem)
    }

    func numberOfSections(_ request: HTTPRequest) throws -> HTTPResponse {
        let read = try TableRead(request, store: store)
        if let notModified = read.notModified(request) { return notModified }
        let table = read.table()
        let response = Respond.json(version: table.version) { writer in
            writer.beginObject()
            writer.key("version"); writer.integer(table.version)
            writer.key("sections")
            writer.beginArray()
            for section in table.sections { section.writeSummaryJSON(to: &writer) }
            writer.endArray()
            writer.endObject()
        }
        return read.answer(response, path: request.path)
    }

    func numberOfRowsInSection(_ request: HTTPRequest) throws -> HTTPResponse {
        let read = try TableRead(request, store: store)
        let s = try request.index("s")
        let table = read.table()
        // A view that selects no row has no section; its section 0 is an empty
        // page, as a search with no results is an empty list, not an error.
        let isEmptyView = read.query != nil && table.sections.isEmpty && s == 0
        if !isEmptyView { try table.requireSection(s) }
        let offset = try request.queryInteger("offset", default: 0)
        let limit = try request.queryInteger("limit", default: Self.defaultPageSize, max: Self.maxPageSize)
        if let notModified = read.notModified(request) { return notModified }
        let rows = isEmptyView ? RowList() : table.sections[s].rows
        let start = min(offset, rows.count)
        let range = start..<(start + min(limit, rows.count - start))
        var response = Respond.json(version: table.version) { writer in
            writer.beginObject()
            writer.key("total"); writer.integer(rows.count)
            writer.key("offset"); writer.integer(offset)
            writer.key("limit"); writer.integer(limit)
            writer.key("rows")
            writer.beginArray()
            for row in rows.rows(in: range) { row.writeJSON(to: &writer) }
            writer.endArray()
            writer.endObject()
        }
        let links = PageLinks(
            path: "/api/tables/\(request.tableID)/sections/\(s)/rows", offset: offset, limit: limit, total: rows.count,
            parameters: read.linkParameters)
        if let link = links.header { response.headers.set("Link", link) }
        return read.answer(response, path: request.path)
    }

    func cellForRowAt(_ request: HTTPRequest) throws -> HTTPResponse {
        let read = try TableRead(request, store: store)
        let indexPath = try request.indexPath()
        let table = read.table()
        try table.requireRow(indexPath)
        if let notModified = read.notModified(request) { return notModified }
        let response = Respond.json(version: table.version) { writer in
            table.sections[indexPath.section].rows[indexPath.row].writeJSON(to: &writer)
        }
        return read.answer(response, path: request.path)
    }

    /// The row with an id, and where it is: `{"at": [section, row], "row": Row}`,
    /// as an item of a batch's `insertRows` (docs/API.md, "Edits by id"). With a
    /// view's parameters, where it is in the view; 404 when the view leaves it out.
    func cellForItem(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try request.rowID(limits)
        let read = try TableRead(request, store: store)
        let table = read.table()
        guard let indexPath = table.indexPath(ofRow: id) else {
            if read.query != nil, read.snapshot.indexPath(ofRow: id) != nil {
                throw TableServerError.itemNotInView(table: table.id, id: id)
            }
            throw TableServerError.itemNotFound(table: table.id, id: id)
        }
        if let notModified = read.notModified(request) { return notModified }
        let response = Respond.json(version: table.version) { writer in
            writer.beginObject()
            writer.key("at"); writer.indexPath(indexPath)
            writer.key("row"); table.sections[indexPath.section].rows[indexPath.row].writeJSON(to: &writer)
            writer.endObject()
        }
        return read.answer(response, path: request.path)
    }
}
