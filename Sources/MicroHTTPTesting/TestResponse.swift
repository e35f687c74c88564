import MicroHTTP

/// A response as a test sees it, whichever the transport.
public struct TestResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body decoded as UTF-8.
    public var text: String {
        String(decoding: body, as: UTF8.self)
    }
}
