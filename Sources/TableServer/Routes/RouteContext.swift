import MicroHTTP
import TableModel
import TableRendering

/// What every route needs: the store, the renderer, the limits and the edit token.
struct RouteContext: Sendable {
    let store: TableStore
    let renderer: TableRenderer
    let limits: ModelLimits
    let token: EditToken?
    let metrics: MetricsSource
}

/// Registers routes whose handlers may throw a `TableServerError`, answered as a problem.
struct RouteBuilder {
    var router: Router
    let context: RouteContext

    /// A read: open to everyone.
    mutating func read(
        _ pattern: String,
        _ handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) {
        router.add(.GET, pattern) { request in
            return Respond.catching { try handler(request) }
        }
    }

    /// An edit: needs the token when one is configured.
    mutating func edit(
        _ method: HTTPMethod,
        _ pattern: String,
        _ handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) {
        let token = context.token
        router.add(method, pattern) { request in
            if let token, !token.authorizes(request.headers["Authorization"]) {
                return EditToken.challenge()
            }
            return Respond.catching { try handler(request) }
        }
    }
}
