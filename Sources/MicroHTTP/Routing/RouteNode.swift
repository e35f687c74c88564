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

/// The endpoints of one pattern, one slot per method: found by the method's
/// position, with no hashing.
struct MethodEndpoints: Sendable {
    private var slots: [Endpoint?] = []
    /// The methods that have an endpoint.
    private(set) var methods = HTTPMethodSet()

    subscript(method: HTTPMethod) -> Endpoint? {
        get { methods.contains(method) ? slots[method.position] : nil }
        set {
            if slots.isEmpty {
                slots = Array(repeating: nil, count: HTTPMethod.allCases.count)
            }
            slots[method.position] = newValue
            if newValue == nil { methods.remove(method) } else { methods.insert(method) }
        }
    }

    var isEmpty: Bool { methods.isEmpty }

    /// The endpoint of the first method that has one, in `HTTPMethod` order.
    var first: Endpoint? {
        HTTPMethod.allCases.lazy.compactMap { self[$0] }.first
    }
}

/// One node of the routing trie: a path segment, what may follow it, and the
/// endpoints of the patterns that end here.
///
/// Paths are matched on their UTF-8 bytes: a segment is a range of the
/// path's bytes between two `/` (empty segments count), literal children are
/// compared byte for byte (a node has a handful of them, and comparing is
/// cheaper than hashing), and a `String` is made only for a captured value.
struct RouteNode: Sendable {
    /// Children reached by a literal segment, in registration order.
    var literals: [(segment: [UInt8], node: RouteNode)] = []
    /// The child reached by a `{name}` segment: none or one.
    var parameter: [RouteNode] = []
    /// Patterns ending at this node.
    var endpoints = MethodEndpoints()
    /// Patterns ending with a catch-all after this node.
    var catchAll = MethodEndpoints()

    mutating func insert(_ segments: ArraySlice<RoutePattern.Segment>, method: HTTPMethod, endpoint: Endpoint) {
        guard let first = segments.first else {
            precondition(endpoints[method] == nil, "route \(method) \(endpoint.route.pattern) registered twice")
            endpoints[method] = endpoint
            return
        }
        switch first {
        case .literal(let text):
            let bytes = Array(text.utf8)
            let index =
                literals.firstIndex { $0.segment == bytes }
                ?? {
                    literals.append((segment: bytes, node: RouteNode()))
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

    /// Visits every set of endpoints whose pattern matches the rest of `path`
    /// from byte `start` (the first byte of a segment; past the end when no
    /// segment is left), most specific first (literal, then parameter, then
    /// catch-all), with the byte ranges of the captured values in pattern
    /// order; stops when `visit` answers true. A path of n bytes is read at
    /// most once per trie branch tried: O(n × depth) bytes in the worst case.
    @discardableResult
    func visitMatches(
        _ path: UnsafeBufferPointer<UInt8>,
        from start: Int,
        captured: inout [Range<Int>],
        _ visit: (MethodEndpoints, [Range<Int>]) -> Bool
    ) -> Bool {
        if start <= path.count {
            var end = start
            while end < path.count, path[end] != UInt8(ascii: "/") {
                end += 1
            }
            let segment = UnsafeBufferPointer(rebasing: path[start..<end])
            // Children are visited in place, by index: a copy of a node would
            // retain every array it holds.
            if let index = literals.firstIndex(where: {
                $0.segment.count == segment.count && $0.segment.elementsEqual(segment)
            }),
                literals[index].node.visitMatches(path, from: end + 1, captured: &captured, visit)
            {
                return true
            }
            if end > start, !parameter.isEmpty {
                captured.append(start..<end)
                defer { captured.removeLast() }
                if parameter[0].visitMatches(path, from: end + 1, captured: &captured, visit) {
                    return true
                }
            }
        } else if !endpoints.isEmpty, visit(endpoints, captured) {
            return true
        }
        if !catchAll.isEmpty {
            return visit(catchAll, captured + [min(start, path.count)..<path.count])
        }
        return false
    }
}
