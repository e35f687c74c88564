/// Answers one request. Handlers cannot throw: every failure is a response.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Maps method and path to handlers.
///
/// Patterns are paths whose segments may be `{name}` (one non-empty segment)
/// or, last, `{name...}` (the rest of the path). Literal segments win over
/// parameters, parameters over a catch-all. HEAD is answered by the GET route
/// and OPTIONS with the allowed methods unless routes are registered for them.
public struct Router: Sendable {
    private var root = RouteNode()
    private var registered: [(method: HTTPMethod, pattern: String)] = []
    /// The number of each registered pattern (see ``RouteLabel``).
    private var patternIDs: [String: Int] = [:]

    public init() {}

    /// Registers `handler` for `method` on `pattern`; registering the same
    /// method and pattern twice is a programming error.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler) {
        let parsed = RoutePattern(pattern)
        let id = patternIDs[pattern] ?? patternIDs.count
        patternIDs[pattern] = id
        let endpoint = Endpoint(
            route: RouteLabel(pattern: pattern, id: id),
            parameterNames: parsed.parameterNames,
            handler: handler
        )
        root.insert(parsed.segments[...], method: method, endpoint: endpoint)
        registered.append((method: method, pattern: pattern))
    }

    /// Every registered method and pattern, in registration order.
    public var routes: [(method: HTTPMethod, pattern: String)] {
        registered
    }

    /// Answers `request` in-process, as the server would: a HEAD answer keeps
    /// its `Content-Length` but carries no body.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var response = dispatch(request).response
        if request.method == .HEAD {
            response.dropBodyForHEAD()
        }
        return response
    }

    /// The response and the route that matched (nil when no path matched).
    /// HEAD answers keep their body; the server leaves it out on the wire.
    func dispatch(_ request: HTTPRequest) -> (response: HTTPResponse, route: RouteLabel?) {
        guard request.path.hasPrefix("/") else {
            return (Self.notFound(request), nil)
        }
        let segments = RouteNode.segments(of: request.path)
        let method = request.method
        var allowed = Set<HTTPMethod>()
        var matched: RouteLabel?
        var found: (endpoint: Endpoint, values: [String])?
        var captured: [String] = []
        root.visitMatches(segments, captured: &captured) { endpoints, values in
            if let endpoint = Self.endpoint(for: method, in: endpoints) {
                found = (endpoint, values)
                return true
            }
            allowed.formUnion(endpoints.keys)
            matched = matched ?? endpoints.values.first?.route
            return false
        }
        if let (endpoint, values) = found {
            var request = request
            for (name, value) in zip(endpoint.parameterNames, values) {
                request.parameters[name] = value
            }
            return (endpoint.handler(request), endpoint.route)
        }
        guard let matched else {
            return (Self.notFound(request), nil)
        }
        let allow = Self.allowHeader(allowed)
        if request.method == .OPTIONS {
            return (HTTPResponse(status: 204, headers: ["Allow": allow]), matched)
        }
        return (Self.methodNotAllowed(request.method.rawValue, path: request.path, allow: allow), matched)
    }

    /// The answer to a method that no route can have (`TRACE`, `CONNECT`,
    /// `BREW`…): 405 with the methods the path allows, as for any method the
    /// path does not allow (docs/API.md, "Status codes"), or 404 when nothing is at the path.
    func refuseUnroutedMethod(_ methodText: String, path: String) -> (response: HTTPResponse, route: RouteLabel?) {
        let request = HTTPRequest(method: .OPTIONS, path: path)
        guard path.hasPrefix("/") else {
            return (Self.notFound(request), nil)
        }
        let segments = RouteNode.segments(of: path)
        var allowed = Set<HTTPMethod>()
        var matched: RouteLabel?
        var captured: [String] = []
        root.visitMatches(segments, captured: &captured) { endpoints, _ in
            allowed.formUnion(endpoints.keys)
            matched = matched ?? endpoints.values.first?.route
            return false
        }
        guard let matched else {
            return (Self.notFound(request), nil)
        }
        return (Self.methodNotAllowed(methodText, path: path, allow: Self.allowHeader(allowed)), matched)
    }

    /// 405 with `Allow`, for a path that exists and a method it does not take.
    private static func methodNotAllowed(_ method: String, path: String, allow: String) -> HTTPResponse {
        HTTPResponse.problem(
            status: 405,
            type: "method-not-allowed",
            detail: "\(method) is not allowed on \(path); allowed: \(allow).",
            headers: ["Allow": allow]
        )
    }

    private static func endpoint(for method: HTTPMethod, in endpoints: [HTTPMethod: Endpoint]) -> Endpoint? {
        if let endpoint = endpoints[method] {
            return endpoint
        }
        return method == .HEAD ? endpoints[.GET] : nil
    }

    private static func allowHeader(_ methods: Set<HTTPMethod>) -> String {
        var methods = methods
        if methods.contains(.GET) {
            methods.insert(.HEAD)
        }
        methods.insert(.OPTIONS)
        return HTTPMethod.allCases.filter(methods.contains).map(\.rawValue).joined(separator: ", ")
    }

    private static func notFound(_ request: HTTPRequest) -> HTTPResponse {
        .problem(status: 404, type: "not-found", detail: "Nothing is found at \(request.path).")
    }
}

extension HTTPResponse {
    /// Empties the body as a HEAD answer does, keeping the `Content-Length`
    /// the GET answer would have had.
    mutating func dropBodyForHEAD() {
        switch body {
        case .bytes(let bytes):
            headers.set("Content-Length", String(bytes.count))
        case .file(_, let size):
            headers.set("Content-Length", String(size))
        case .stream(let stream):
            stream.close()
        case .chunks:
            break
        }
        body = .bytes([])
    }
}
