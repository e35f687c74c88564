import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `If-Match` and `If-None-Match` as entity tags, `"7"`.
///
/// swift-openapi-runtime percent-encodes every header value it sets, so the
/// generated client would send `If-Match: %227%22`, which is no entity tag
/// (RFC 9110; OpenAPI 3.1.1 serializes headers without percent-encoding). Its
/// maintainers' answer is a middleware such as this one
/// (apple/swift-openapi-generator#529).
struct EntityTagMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in [HTTPField.Name.ifMatch, .ifNoneMatch] {
            if let value = request.headerFields[name] {
                request.headerFields[name] = value.removingPercentEncoding ?? value
            }
        }
        return try await next(request, body, baseURL)
    }
}
