/// A handler registered for one method on one pattern.
struct Endpoint: Sendable {
    let pattern: String
    let parameterNames: [String]
    let handler: HTTPHandler
}

/// One node of the routing trie: a path segment, what may follow it, and the
/// endpoints of the patterns that end here.
struct RouteNode: Sendable {
    enum Key: Hashable, Sendable {
        case literal(String)
        case parameter
    }

    var children: [Key: RouteNode] = [:]
    /// Patterns ending at this node.
    var endpoints: [HTTPMethod: Endpoint] = [:]
    /// Patterns ending with a catch-all after this node.
    var catchAll: [HTTPMethod: Endpoint] = [:]

    mutating func insert(_ segments: ArraySlice<RoutePattern.Segment>, method: HTTPMethod, endpoint: Endpoint) {
        guard let first = segments.first else {
            precondition(endpoints[method] == nil, "route \(method) \(endpoint.pattern) registered twice")
            endpoints[method] = endpoint
            return
        }
        let key: Key
        switch first {
        case .literal(let text):
            key = .literal(text)
        case .parameter:
            key = .parameter
        case .catchAll:
            precondition(catchAll[method] == nil, "route \(method) \(endpoint.pattern) registered twice")
            catchAll[method] = endpoint
            return
        }
        children[key, default: RouteNode()].insert(segments.dropFirst(), method: method, endpoint: endpoint)
    }

    /// Visits every set of endpoints whose pattern matches `segments`, most
    /// specific first (literal, then parameter, then catch-all), with the
    /// captured values in pattern order; stops when `visit` answers true.
    @discardableResult
    func visitMatches(
        _ segments: ArraySlice<Substring>,
        captured: inout [String],
        _ visit: ([HTTPMethod: Endpoint], [String]) -> Bool
    ) -> Bool {
        if let first = segments.first {
            if let child = children[.literal(String(first))],
               child.visitMatches(segments.dropFirst(), captured: &captured, visit) {
                return true
            }
            if !first.isEmpty, let child = children[.parameter] {
                captured.append(String(first))
                defer { captured.removeLast() }
                if child.visitMatches(segments.dropFirst(), captured: &captured, visit) {
                    return true
                }
            }
        } else if !endpoints.isEmpty, visit(endpoints, captured) {
            return true
        }
        if !catchAll.isEmpty {
            return visit(catchAll, captured + [segments.joined(separator: "/")])
        }
        return false
    }
}
