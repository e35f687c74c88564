import Foundation
import Synchronization
import TableModel
import Testing
import WebTableViewClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession underneath; records each request's method and path.
final class RecordingTransport: HTTPTransport, EventStreamTransport {
    let base = URLSessionTransport()
    let requests = Mutex<[String]>([])

    func send(_ request: URLRequest) async throws -> HTTPAnswer {
        requests.withLock { $0.append("\(request.httpMethod ?? "GET") \(request.url?.path ?? "")") }
        return try await base.send(request)
    }

    func stream(_ request: URLRequest) -> AsyncThrowingStream<[UInt8], any Error> { base.stream(request) }
}

@Suite struct RowByIDTests {
    /// `row(of:withID:)` reads the one item (`GET …/items/{id}`), not the table:
    /// the row and its index path; nil for an id no row has, told from a table
    /// that is not there (thrown) by one `HEAD` of its sections.
    @Test func readsOneItemByItsID() async throws {
        let (server, url) = try startServer()
        defer { server.shutdown() }
        let recording = RecordingTransport()
        let client = TableClient(baseURL: url, transport: recording)

        let found = try await client.row(of: "t", withID: "wifi")
        #expect(found?.0 == TableIndexPath(2, 0))
        #expect(found?.1 == fixtureTable().row(at: TableIndexPath(2, 0)))
        _ = try await client.moveItem("wifi", .before("a0"), in: "t")
        #expect(try await client.row(of: "t", withID: "wifi")?.0 == TableIndexPath(0, 0))
        #expect(try await client.row(of: "t", withID: "nope") == nil)
        await #expect {
            _ = try await client.row(of: "gone", withID: "wifi")
        } throws: { error in
            (error as? TableClientError)?.problem?.kind == .notFound
        }
        #expect(
            recording.requests.withLock { $0 } == [
                "GET /api/tables/t/items/wifi", "POST /api/tables/t/items/wifi/move", "GET /api/tables/t/items/wifi",
                "GET /api/tables/t/items/nope", "HEAD /api/tables/t/sections",
                "GET /api/tables/gone/items/wifi", "HEAD /api/tables/gone/sections",
            ])
    }
}
