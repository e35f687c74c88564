import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// The operations the generated client has sent, by `operationId`.
final class OperationLog: Sendable {
    private let called = Mutex<Set<String>>([])

    func record(_ operationID: String) { _ = called.withLock { $0.insert(operationID) } }

    var operations: Set<String> { called.withLock { $0 } }
}

/// Records each request's operation in an `OperationLog`, then sends it.
struct RecordingMiddleware: ClientMiddleware {
    let log: OperationLog

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        log.record(operationID)
        return try await next(request, body, baseURL)
    }
}

/// Every `operationId` of an OpenAPI document.
func operationIDs(of document: OpenAPIObjectContainer) -> Set<String> {
    guard let paths = document.value["paths"] as? [String: (any Sendable)?] else { return [] }
    var found: Set<String> = []
    for case let item as [String: (any Sendable)?] in paths.values.compactMap({ $0 }) {
        for case let operation as [String: (any Sendable)?] in item.values.compactMap({ $0 }) {
            if let id = operation["operationId"] as? String { found.insert(id) }
        }
    }
    return found
}
