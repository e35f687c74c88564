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
        try table.requireSection(s)
        let offset = try request.queryInteger("offset", default: 0)
        let limit = try request.queryInteger("limit", default: Self.defaultPageSize, max: Self.maxPageSize)
        if let notModified = read.notModified(request) { return notModified }
        let rows = table.sections[s].rows
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
        // How to go on (RFC 8288): the next page, while rows are left after this one.
        if range.upperBound < rows.count && limit > 0 {
            let next =
                "/api/tables/\(request.tableID)/sections/\(s)/rows?offset=\(range.upperBound)&limit=\(limit)"
                + read.linkParameters
            response.headers.set("Link", "<\(next)>; rel=\"next\"")
        }
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
}
