/// A parsed route pattern such as `/api/tables/{t}/rows/{r}` or `/public/{path...}`.
struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// `{name...}`: the rest of the path, zero or more segments; only last.
        case catchAll(String)
    }

    let text: String
    let segments: [Segment]

    /// Parses `text`; a malformed pattern is a programming error.
    init(_ text: String) {
        precondition(text.hasPrefix("/"), "route pattern must start with /: \(text)")
        let pieces = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [Segment] = []
        for (index, piece) in pieces.enumerated() {
            guard piece.hasPrefix("{"), piece.hasSuffix("}"), piece.count > 2 else {
                precondition(
                    !piece.contains("{") && !piece.contains("}"), "malformed route segment \(piece) in \(text)")
                segments.append(.literal(String(piece)))
                continue
            }
            let name = piece.dropFirst().dropLast()
            if name.hasSuffix("...") {
                precondition(index == pieces.count - 1, "a catch-all must be the last segment: \(text)")
                segments.append(.catchAll(String(name.dropLast(3))))
            } else {
                segments.append(.parameter(String(name)))
            }
        }
        self.text = text
        self.segments = segments
    }

    /// The names of the `{name}` segments in order, then the catch-all's name.
    var parameterNames: [String] {
        segments.compactMap {
            switch $0 {
            case .literal: nil
            case .parameter(let name), .catchAll(let name): name
            }
        }
    }
}
