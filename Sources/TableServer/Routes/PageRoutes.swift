import MicroHTTP
import TableModel

/// The HTML side: the list of tables, a table view, a row's detail page, a section's
/// further rows as a page (without JavaScript) and `<tr>` fragments for scrolling further (with it).
struct PageRoutes: RouteCollection {
    let context: RouteContext

    func register(on routes: inout RouteBuilder) {
        routes.route(.GET, "/", index)
        routes.route(.GET, "/tables/{t}", weight: .page, tableView)
        routes.route(.GET, "/tables/{t}/rows/{rowID}", weight: .byRequest, rowDetail)
        routes.route(.GET, "/tables/{t}/sections/{s}", weight: .byRequest, sectionPage)
        routes.route(.GET, "/tables/{t}/sections/{s}/rows", weight: .byRequest, rowsFragment)
    }

    func index(_ request: HTTPRequest) -> HTTPResponse {
        Respond.taggedByContent(
            Respond.html(
                context.renderer.index(context.readableTables(), session: context.pageSession(on: nil))),
            for: request)
    }

    func tableView(_ request: HTTPRequest) -> HTTPResponse {
        do {
            var style: TableStyle?
            if let name = request.query["style"] {
                guard let parsed = TableStyle(rawValue: name) else {
                    return page(
                        error: .badRequest(
                            type: "bad-parameter",
                            detail: "style must be plain, grouped or insetGrouped (got \"\(name)\")"))
                }
                style = parsed
            }
            let read = try TableRead(request, store: store, defaultView: true)
            if let notModified = read.notModified(request) { return notModified }
            let session = context.pageSession(on: request.tableID)
            let pieces = context.renderer.pagePieces(read.table(), style: style, view: read.query, session: session)
            return read.tagged(Respond.html(pieces: pieces, version: read.version), path: request.path)
        } catch let error as TableServerError {
            return page(error: error)
        } catch {
            return Respond.internalError(error, logger: context.logger, html: true)
        }
    }

    /// A row's fields as a record (docs/API.md, "Pages"): 404 for a table, or a row
    /// id, that does not exist. Tagged with the table's version, so that the
    /// page's script can tell a fresh copy from the one it shows.
    func rowDetail(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let id = try request.rowID(context.limits)
            let read = try TableRead(request, store: store)
            let table = read.table()
            guard let indexPath = table.indexPath(ofRow: id) else {
                throw TableServerError.itemNotFound(table: table.id, id: id)
            }
            if let notModified = read.notModified(request) { return notModified }
            let html = context.renderer.rowDetail(
                table, at: indexPath, session: context.pageSession(on: request.tableID))
            return read.tagged(Respond.html(html, version: table.version), path: request.path)
        } catch let error as TableServerError {
            return page(error: error)
        } catch {
            return Respond.internalError(error, logger: context.logger, html: true)
        }
    }

    /// Where "Show N more rows" leads without JavaScript: the next rows as a whole page.
    func sectionPage(_ request: HTTPRequest) -> HTTPResponse {
        let session = context.pageSession(on: request.tableID)
        return rowsPage(request, defaultLimit: ReadRoutes.maxPageSize) { table, section, range, view in
            context.renderer.sectionPage(table, section: section, range: range, view: view, session: session)
        }
    }

    /// The `<tr>` fragment the page's script loads as it scrolls.
    func rowsFragment(_ request: HTTPRequest) -> HTTPResponse {
        rowsPage(request, defaultLimit: ReadRoutes.defaultPageSize, draw: context.renderer.rows)
    }

    /// Rows `offset` and `limit` of section `{s}` (clamped to it) drawn by
    /// `draw`, as HTML with the table's ETag (the view's, with view
    /// parameters); errors as an HTML page.
    private func rowsPage(
        _ request: HTTPRequest, defaultLimit: Int, draw: (Table, Int, Range<Int>, TableQuery?) -> String
    ) -> HTTPResponse {
        do {
            let read = try TableRead(request, store: store)
            let table = read.table()
            let s = try request.index("s")
            try table.requireSection(s)
            let offset = try request.queryInteger("offset", default: 0)
            let limit = try request.queryInteger("limit", default: defaultLimit, max: ReadRoutes.maxPageSize)
            let count = table.sections[s].rows.count
            let start = min(offset, count)
            if let notModified = read.notModified(request) { return notModified }
            let html = draw(table, s, start..<(start + min(limit, count - start)), read.query)
            return read.tagged(Respond.html(html, version: table.version), path: request.path)
        } catch let error as TableServerError {
            return page(error: error)
        } catch {
            return Respond.internalError(error, logger: context.logger, html: true)
        }
    }

    /// An error as a small HTML page, with the status the API would answer.
    private func page(error: TableServerError) -> HTTPResponse {
        Respond.html(
            context.renderer.errorPage(
                status: error.status, title: HTTPStatus.reasonPhrase(for: error.status), detail: error.detail),
            status: error.status)
    }
}
