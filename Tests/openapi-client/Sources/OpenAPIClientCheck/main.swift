// Calls every operation of the server's OpenAPI document through the client
// swift-openapi-generator generated from it, and checks each answer's status
// and decoded body. Usage: OpenAPIClientCheck http://127.0.0.1:PORT
// (scripts/test-openapi-client.sh starts the server). Exits 1 on any failure.
import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

let arguments = CommandLine.arguments
guard arguments.count == 2, let serverURL = URL(string: arguments[1]) else {
    print("usage: OpenAPIClientCheck http://HOST:PORT")
    exit(2)
}
let log = OperationLog()
let client = Client(
    serverURL: serverURL, transport: URLSessionTransport(),
    middlewares: [RecordingMiddleware(log: log), EntityTagMiddleware()])
let checks = Checks()

await TableChecks(client: client, checks: checks).run()
await IndexEditChecks(client: client, checks: checks).run()
await IdentifiedEditChecks(client: client, checks: checks).run()
await ViewChecks(client: client, checks: checks).run()
await PageChecks(client: client, checks: checks).run()
await ShareChecks(client: client, checks: checks).run()
await FeedChecks(client: client, checks: checks).run()
let documented = await SystemChecks(client: client, checks: checks).run()

let missing = documented.subtracting(log.operations).sorted()
checks.expect(!documented.isEmpty, "the document names no operation")
checks.expect(missing.isEmpty, "operations never called: \(missing.joined(separator: ", "))")
print(
    "openapi-client: \(log.operations.intersection(documented).count) of \(documented.count) operations called, "
        + "\(checks.passed) checks passed, \(checks.failures.count) failed")
exit(checks.failures.isEmpty ? 0 : 1)
