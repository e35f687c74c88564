/// A response: status, header fields and a body.
///
/// The server adds `Content-Length` (or chunked transfer coding) and `Date`
/// itself; a `Content-Length` field set here is ignored by the server.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: HTTPBody
    /// Set when the server may send this answer again without asking the
    /// handler; see ``reusable(while:at:)``.
    public var reuse: ResponseReuse?
    /// Set when the answer is given later; see ``deferred(_:)``.
    public private(set) var deferral: DeferredResponse?

    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response holding `bytes`, labelled with `contentType`.
    public init(status: Int = 200, contentType: String, bytes: [UInt8], headers: HTTPHeaders = HTTPHeaders()) {
        var headers = headers
        headers.set("Content-Type", contentType)
        self.init(status: status, headers: headers, body: .bytes(bytes))
    }

    /// An answer given later, when `deferral` is completed: the server
    /// answers other requests meanwhile (see ``DeferredResponse``). The
    /// status, fields and body of this value are not sent.
    public static func deferred(_ deferral: DeferredResponse) -> HTTPResponse {
        var response = HTTPResponse(status: 202)
        response.deferral = deferral
        return response
    }

    /// A `text/plain` response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", bytes: Array(text.utf8))
    }

    /// An RFC 9457 `application/problem+json` document:
    /// `{"type", "title", "status", "detail"}` and a line feed, with `Cache-Control: no-store`
    /// (unless `headers` says otherwise): an error is never kept by a cache.
    ///
    /// - Parameters:
    ///   - type: a short slug naming the rule that was broken (`not-found`, `validation`, …).
    ///   - title: defaults to the status code's reason phrase.
    ///   - headers: extra header fields, such as `Allow`.
    public static func problem(
        status: Int,
        type: String,
        title: String? = nil,
        detail: String,
        headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        var json = "{\"type\":"
        JSONText.appendString(type, to: &json)
        json += ",\"title\":"
        JSONText.appendString(title ?? HTTPStatus.reasonPhrase(for: status), to: &json)
        json += ",\"status\":\(status),\"detail\":"
        JSONText.appendString(detail, to: &json)
        json += "}\n"
        var headers = headers
        if !headers.contains("Cache-Control") {
            headers.set("Cache-Control", "no-store")
        }
        return HTTPResponse(
            status: status,
            contentType: "application/problem+json",
            bytes: Array(json.utf8),
            headers: headers
        )
    }
}
