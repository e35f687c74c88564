import MicroHTTP

/// The cache headers of an answer that depends on who asked (docs/ACCESS.md,
/// "Caches"): under a policy, what a route that needs a right answers — rows,
/// lists, pages, streams, refusals — is one requester's, and no shared cache
/// may hand it to another.
enum PrivateAnswer {
    /// `response` with `Vary: Authorization, Cookie`, and `Cache-Control:
    /// no-store` when the request carried a credential (`private` added to
    /// its directives otherwise); a deferred answer once it is given.
    static func marked(_ response: HTTPResponse, credential: Bool) -> HTTPResponse {
        response.whenGiven { given in headed(given, credential: credential) }
    }

    private static func headed(_ given: HTTPResponse, credential: Bool) -> HTTPResponse {
        var response = given
        response.headers.add("Vary", "Authorization, Cookie")
        let directives = response.headers["Cache-Control"]
        if credential {
            response.headers.set("Cache-Control", "no-store")
        } else if let directives, !directives.contains("no-store"), !directives.contains("private") {
            response.headers.set("Cache-Control", "private, \(directives)")
        } else if directives == nil {
            response.headers.set("Cache-Control", "private")
        }
        return response
    }
}
