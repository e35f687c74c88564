import MicroHTTP
import TableModel

/// The HTML side: the list of tables, a table view, a section's further rows as a page
/// (without JavaScript) and `<tr>` fragments for scrolling further (with it).
extension RouteBuilder {
    mutating func addPageRoutes() {
        let store = context.store
        let renderer = context.renderer
        let logger = context.logger

        /// An error as a small HTML page, with the status the API would answer.
        @Sendable func page(error: TableServerError) -> HTTPResponse {
            Respond.html(
                renderer.errorPage(status: error.status, title: HTTPStatus.reasonPhrase(for: error.status), detail: error.detail),
                status: error.status)
        }

        router.add(.GET, "/") { request in
            Respond.taggedByContent(Respond.html(renderer.index(store.tables())), for: request)
        }

        router.add(.GET, "/tables/{t}") { request in
            do {
                let table = try store.table(request.tableID)
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
                if ETag.matches(request.headers["If-None-Match"], version: table.version) {
                    return Respond.notModified(version: table.version)
                }
                return Respond.html(pieces: renderer.pagePieces(table, style: style), version: table.version)
            } catch let error as TableServerError {
                return page(error: error)
            } catch {
                return Respond.internalError(error, logger: logger, html: true)
            }
        }

        /// The table, section `{s}` and the rows `offset` and `limit` ask for, clamped to the section.
        @Sendable func requestedRows(_ request: HTTPRequest, defaultLimit: Int) throws -> (Table, Int, Range<Int>) {
            let table = try store.table(request.tableID)
            let s = try request.index("s")
            try table.requireSection(s)
            let offset = try request.queryInteger("offset", default: 0)
            let limit = try request.queryInteger("limit", default: defaultLimit, max: Self.maxPageSize)
            let count = table.sections[s].rows.count
            let start = min(offset, count)
            return (table, s, start..<(start + min(limit, count - start)))
        }

        // Where "Show N more rows" leads without JavaScript: the next rows as a whole page.
        router.add(.GET, "/tables/{t}/sections/{s}") { request in
            do {
                let (table, s, range) = try requestedRows(request, defaultLimit: Self.maxPageSize)
                if ETag.matches(request.headers["If-None-Match"], version: table.version) {
                    return Respond.notModified(version: table.version)
                }
                return Respond.html(renderer.sectionPage(table, section: s, range: range), version: table.version)
            } catch let error as TableServerError {
                return page(error: error)
            } catch {
                return Respond.internalError(error, logger: logger, html: true)
            }
        }

        router.add(.GET, "/tables/{t}/sections/{s}/rows") { request in
            do {
                let (table, s, range) = try requestedRows(request, defaultLimit: Self.defaultPageSize)
                if ETag.matches(request.headers["If-None-Match"], version: table.version) {
                    return Respond.notModified(version: table.version)
                }
                return Respond.html(renderer.rows(table, section: s, range: range), version: table.version)
            } catch let error as TableServerError {
                return page(error: error)
            } catch {
                return Respond.internalError(error, logger: logger, html: true)
            }
        }

    }
}
