/// Answers one request. Handlers cannot throw: every failure is a response.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Maps method and path to handlers.
///
/// Patterns are paths whose segments may be `{name}` (one non-empty segment)
/// or, last, `{name...}` (the rest of the path). Literal segments win over
/// parameters, parameters over a catch-all. HEAD is answered by the GET route
/// and OPTIONS with the allowed methods unless routes are registered for them.
/// A path no route matches, with a trailing slash or an empty segment, is
/// redirected (308) to the path without them when a route matches that
/// (`CanonicalTarget`).
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
        let method = request.method
        let routed = Self.withBytes(of: request.path) { path -> (endpoint: Endpoint, values: [String])? in
            var found: (endpoint: Endpoint, values: [String])?
            visitMatches(path) { endpoints, ranges in
                guard let endpoint = Self.endpoint(for: method, in: endpoints) else {
                    return false
                }
                found = (
                    endpoint, ranges.map { String(decoding: UnsafeBufferPointer(rebasing: path[$0]), as: UTF8.self) }
                )
                return true
            }
            return found
        }
        if let (endpoint, values) = routed {
            var request = request
            request.parameters = PathParameters(names: endpoint.parameterNames, values: values)
            return (endpoint.handler(request), endpoint.route)
        }
        guard let (allowed, matched) = allowedMethods(at: request.path) else {
            if let canonical = CanonicalTarget.path(request.path), allowedMethods(at: canonical) != nil {
                let location = CanonicalTarget.location(path: canonical, query: request.query)
                return (HTTPResponse(status: 308, headers: ["Location": location]), nil)
            }
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
        guard let (allowed, matched) = allowedMethods(at: path) else {
            return (Self.notFound(HTTPRequest(method: .OPTIONS, path: path)), nil)
        }
        return (Self.methodNotAllowed(methodText, path: path, allow: Self.allowHeader(allowed)), matched)
    }

    /// Every method some pattern matching `path` takes, and the first such
    /// pattern; nil when no pattern matches.
    private func allowedMethods(at path: String) -> (HTTPMethodSet, RouteLabel)? {
        Self.withBytes(of: path) { bytes in
            var allowed = HTTPMethodSet()
            var matched: RouteLabel?
            visitMatches(bytes) { endpoints, _ in
                allowed.formUnion(endpoints.methods)
                matched = matched ?? endpoints.first?.route
                return false
            }
            return matched.map { (allowed, $0) }
        }
    }

    /// The trie's walk over a path that starts with `/` (any other matches nothing).
    private func visitMatches(_ path: UnsafeBufferPointer<UInt8>, _ visit: (MethodEndpoints, [Range<Int>]) -> Bool) {
        guard path.first == UInt8(ascii: "/") else {
            return
        }
        var captured: [Range<Int>] = []
        root.visitMatches(path, from: 1, captured: &captured, visit)
    }

    /// Runs `body` on the path's UTF-8 bytes, in place for a native string.
    private static func withBytes<Result>(of path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var path = path
        return path.withUTF8(body)
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

    private static func endpoint(for method: HTTPMethod, in endpoints: MethodEndpoints) -> Endpoint? {
        if let endpoint = endpoints[method] {
            return endpoint
        }
        return method == .HEAD ? endpoints[.GET] : nil
    }

    private static func allowHeader(_ methods: HTTPMethodSet) -> String {
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
