import Foundation
import MicroHTTP
import MicroHTTPTesting
import Synchronization
import TableServerTesting
import Testing

/// The server keeps plain GET answers of the JSON reads ready to send again
/// (`HTTPResponse.reusable`); over a real socket, a read never gets an answer
/// older than the edits acknowledged before it was sent.
@Suite struct KeptAnswerTests {
    private func insertAtTop(_ client: TestClient, _ index: Int) throws -> Int {
        let response = try client.request(
            .POST, "/api/tables/t/batch", headers: jsonHeaders,
            body: body(
                #"""
                {"insertRows": [{"at": [0, 0], "row": {"id": "n\#(index)", "text": "N\#(index)"}}]}
                """#))
        #expect(response.status == 200)
        return try #require(try response.json["version"]?.int)
    }

    @Test func everyJSONReadFollowsTheEditBeforeIt() throws {
        try withServer(.live) { client in
            let reads = [
                "/api/tables/t", "/api/tables/t/sections", "/api/tables/t/sections/0/rows",
                "/api/tables/t/sections/0/rows/0",
            ]
            for path in reads {
                _ = try client.request(.GET, path)
            }
            for index in 0..<20 {
                let version = try insertAtTop(client, index)
                for path in reads {
                    let response = try client.request(.GET, path)
                    #expect(response.headers["ETag"] == "\"\(version)\"", "\(path) after edit \(index)")
                }
                let row = try client.request(.GET, "/api/tables/t/sections/0/rows/0").json
                #expect(row["id"]?.string == "n\(index)")
                let sections = try client.request(.GET, "/api/tables/t/sections").json
                #expect(sections["sections"]?[0]?["rowCount"]?.int == 8 + index)
            }
        }
    }

    @Test func aDeletedTableIsNotAnsweredFromWhatWasKeptAndItsSuccessorIsNew() throws {
        try withServer(.live) { client in
            #expect(try client.request(.GET, "/api/tables/t/sections/0/rows/0").json["id"]?.string == "a0")
            #expect(try client.request(.GET, "/api/tables/t/sections/0/rows/0").status == 200)
            #expect(try client.request(.DELETE, "/api/tables/t").status == 204)
            #expect(try client.request(.GET, "/api/tables/t/sections/0/rows/0").status == 404)
            let created = try client.request(
                .POST, "/api/tables", headers: jsonHeaders,
                body: body(
                    #"""
                    {"id": "t", "sections": [{"rows": [{"id": "fresh", "text": "Fresh"}]}]}
                    """#))
            #expect(created.status == 201)
            let row = try client.request(.GET, "/api/tables/t/sections/0/rows/0")
            #expect(row.status == 200)
            #expect(try row.json["id"]?.string == "fresh")
            #expect(row.headers["ETag"] == "\"0\"")
        }
    }

    @Test func readersRacingAWriterSeeEveryAcknowledgedEdit() throws {
        try withServer(.live) { client in
            let acknowledged = Atomic<Int>(0)
            let stale = Mutex([String]())
            DispatchQueue.concurrentPerform(iterations: 3) { worker in
                if worker == 0 {
                    for index in 0..<60 {
                        if let version = try? insertAtTop(client, index) {
                            acknowledged.store(version, ordering: .sequentiallyConsistent)
                        }
                    }
                    return
                }
                for _ in 0..<200 {
                    let floor = acknowledged.load(ordering: .sequentiallyConsistent)
                    guard let response = try? client.request(.GET, "/api/tables/t/sections/0/rows/0"),
                        let tag = response.headers["ETag"], let version = Int(tag.dropFirst().dropLast()),
                        version >= floor
                    else {
                        stale.withLock { $0.append("read below version \(floor)") }
                        continue
                    }
                }
            }
            #expect(stale.withLock { $0 }.isEmpty)
        }
    }
}
