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
        let offset = try request.queryInteger("offset", default: 0)
        let limit = try request.queryInteger("limit", default: Self.defaultPageSize, max: Self.maxPageSize)
        // An offset near Int.max is past any section's end: the page's end stops at Int.max.
        let page = try read.page(offset..<(offset > Int.max - limit ? Int.max : offset + limit), ofSection: s)
        if let notModified = read.notModified(request) { return notModified }
        var response = Respond.json(version: read.version) { writer in
            writer.beginObject()
            writer.key("total"); writer.integer(page.total)
            writer.key("offset"); writer.integer(offset)
            writer.key("limit"); writer.integer(limit)
            writer.key("rows")
            writer.beginArray()
            for row in page.rows { row.writeJSON(to: &writer) }
            writer.endArray()
            writer.endObject()
        }
        let links = PageLinks(
            path: "/api/tables/\(request.tableID)/sections/\(s)/rows", offset: offset, limit: limit, total: page.total,
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
            // A row the requester's bound view leaves out does not exist for it.
            let seen = read.bound.map { read.handle.views.view($0, of: read.snapshot) } ?? read.snapshot
            if read.query != nil, seen.indexPath(ofRow: id) != nil {
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
