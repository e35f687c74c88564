/// A request as the router's handlers see it: the whole body has been read.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The path without the query, percent-decoded.
    public var path: String
    /// The query arguments, percent-decoded; the first value of each name.
    public var query: [String: String]
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Values of the route pattern's `{name}` segments, filled in by the router.
    public var parameters: PathParameters
    /// The coding the server will send a compressible 200 in, chosen from
    /// `Accept-Encoding` (see ``ContentEncoding``).
    public var contentCoding: ContentCoding

    public init(
        method: HTTPMethod,
        path: String,
        query: [String: String] = [:],
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        contentCoding: ContentCoding? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.parameters = PathParameters()
        self.contentCoding = contentCoding ?? ContentCoding.preferred(by: headers["Accept-Encoding"])
    }
}

/// The values of a route pattern's `{name}` segments (and of its `{name...}`),
/// by name: a pattern has a few, so they are found by comparing names, not hashing.
public struct PathParameters: Sendable {
    private let names: [String]
    private let values: [String]

    /// No parameters.
    public init() {
        names = []
        values = []
    }

    /// `values[i]` is the value of `names[i]`.
    init(names: [String], values: [String]) {
        precondition(names.count == values.count, "one value for each parameter name")
        self.names = names
        self.values = values
    }

    /// The value of the segment called `name`, or nil when the pattern has none.
    public subscript(name: String) -> String? {
        names.firstIndex(of: name).map { values[$0] }
    }
}
