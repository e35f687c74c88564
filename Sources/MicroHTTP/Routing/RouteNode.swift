/// A route pattern and the number its router gave it: requests are counted
/// by number, so the metrics never hash the pattern's text.
struct RouteLabel: Sendable {
    let pattern: String
    let id: Int
}

/// A handler registered for one method on one pattern.
struct Endpoint: Sendable {
    let route: RouteLabel
    let parameterNames: [String]
    let handler: HTTPHandler
}

/// One node of the routing trie: a path segment, what may follow it, and the
/// endpoints of the patterns that end here.
///
/// Literal children are kept in a short list and compared byte by byte: a node
/// has a handful of them, and comparing is cheaper than hashing the segment.
struct RouteNode: Sendable {
    /// Children reached by a literal segment, in registration order.
    var literals: [(segment: String, node: RouteNode)] = []
    /// The child reached by a `{name}` segment: none or one.
    var parameter: [RouteNode] = []
    /// Patterns ending at this node.
    var endpoints: [HTTPMethod: Endpoint] = [:]
    /// Patterns ending with a catch-all after this node.
    var catchAll: [HTTPMethod: Endpoint] = [:]

    mutating func insert(_ segments: ArraySlice<RoutePattern.Segment>, method: HTTPMethod, endpoint: Endpoint) {
        guard let first = segments.first else {
            precondition(endpoints[method] == nil, "route \(method) \(endpoint.route.pattern) registered twice")
            endpoints[method] = endpoint
            return
        }
        switch first {
        case .literal(let text):
            let index =
                literals.firstIndex { $0.segment == text }
                ?? {
                    literals.append((segment: text, node: RouteNode()))
                    return literals.count - 1
                }()
            literals[index].node.insert(segments.dropFirst(), method: method, endpoint: endpoint)
        case .parameter:
            if parameter.isEmpty {
                parameter.append(RouteNode())
            }
            parameter[0].insert(segments.dropFirst(), method: method, endpoint: endpoint)
        case .catchAll:
            precondition(catchAll[method] == nil, "route \(method) \(endpoint.route.pattern) registered twice")
            catchAll[method] = endpoint
        }
    }

    /// The segments of a path that starts with `/`, split at every `/` (empty
    /// segments kept). Works on UTF-8 bytes: `/` is ASCII, so every cut is a
    /// character boundary, and no `Character` is ever formed.
    static func segments(of path: String) -> ArraySlice<Substring> {
        let utf8 = path.utf8
        var segments: [Substring] = []
        segments.reserveCapacity(8)
        var start = utf8.index(after: utf8.startIndex)
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                segments.append(path[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        segments.append(path[start..<utf8.endIndex])
        return segments[...]
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
            if let child = literals.first(where: { $0.segment.utf8.elementsEqual(first.utf8) })?.node,
                child.visitMatches(segments.dropFirst(), captured: &captured, visit)
            {
                return true
            }
            if !first.isEmpty, let child = parameter.first {
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
