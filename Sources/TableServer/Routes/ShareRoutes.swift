import Foundation
import MicroHTTP
import TableAccess

/// Share links (docs/ACCESS.md, "Share links"): an admin of a table mints a
/// signed, expiring link to it with one right; a browser that opens it gets
/// the link's cookie and the table's page; sign-out forgets the cookie.
struct ShareRoutes: RouteCollection {
    let context: RouteContext

    func register(on routes: inout RouteBuilder) {
        routes.edit(.POST, "/api/tables/{t}/share", weight: .light, mint)
        routes.route(.GET, "/tables/{t}/share", open)
        routes.route(.POST, "/sign-out", signOut)
    }

    /// 201 with the link's path and what it gives; the access check let only
    /// an admin of the table through.
    func mint(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let links = context.access?.shareLinks else { return Self.off() }
        let table = request.tableID
        _ = try store.handle(table)
        let share = try ShareRequest(request.jsonBody())
        let grant = ShareGrant(
            table: table, right: share.right, expiresAt: Int(Date().timeIntervalSince1970) + share.life)
        let url = "/tables/\(table)/share?key=\(links.key(for: grant))"
        var response = Respond.json(status: 201) { json in
            json.object { json in
                json.key("url")
                json.string(url)
                json.key("table")
                json.string(table)
                json.key("right")
                json.string(grant.right.name)
                json.key("expiresAt")
                json.integer(grant.expiresAt)
            }
        }
        response.headers.set("Location", url)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// Verifies the link's key; 303 to the table's page with its cookie, or
    /// an HTML page saying why not (400 no key, 401 forged or expired, 403
    /// another table's), with no cookie.
    func open(_ request: HTTPRequest) -> HTTPResponse {
        let table = request.tableID
        guard let links = context.access?.shareLinks else {
            return page(status: 404, "This server makes no share links.")
        }
        guard let key = request.query["key"], !key.isEmpty else {
            return page(status: 400, "A share link ends with ?key=…, and this one has no key: copy the whole link.")
        }
        switch links.grant(ofKey: key) {
        case .failure(let refusal):
            return page(status: 401, "The link does not open table \(table): \(refusal.reason).")
        case .success(let grant) where grant.table != table:
            return page(status: 403, "This share link is for another table, not \(table).")
        case .success(let grant):
            let life = grant.expiresAt - Int(Date().timeIntervalSince1970)
            return HTTPResponse(
                status: 303,
                headers: [
                    "Location": "/tables/\(table)",
                    "Set-Cookie": ShareCookie.setting(key, for: life, secure: ShareCookie.isSecure(request)),
                    "Cache-Control": "no-store",
                ],
                body: .bytes([]))
        }
    }

    /// Forgets the share cookie and goes back to the list of tables; refused
    /// from another site, like every edit.
    func signOut(_ request: HTTPRequest) -> HTTPResponse {
        if CrossSite.isRefused(request, corsOrigins: context.corsOrigins) { return CrossSite.refusal() }
        return HTTPResponse(
            status: 303,
            headers: [
                "Location": "/", "Set-Cookie": ShareCookie.clearing(secure: ShareCookie.isSecure(request)),
                "Cache-Control": "no-store",
            ],
            body: .bytes([]))
    }

    private func page(status: Int, _ detail: String) -> HTTPResponse {
        var response = Respond.html(
            context.renderer.errorPage(
                status: status, title: HTTPStatus.reasonPhrase(for: status), detail: detail),
            status: status)
        if status == 401 {
            response.headers.set("WWW-Authenticate", "Bearer realm=\"webtableview\", error=\"invalid_token\"")
        }
        return response
    }

    /// 403 for a server with no share links (no policy, or no HS256 secret):
    /// the table is there, the server refuses to mint.
    private static func off() -> HTTPResponse {
        .problem(
            status: 403, type: "no-share-links",
            detail: "this server makes no share links: start it with --access-policy and --jwt-secret-file")
    }
}
