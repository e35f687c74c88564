import Foundation
import JSON
import MicroHTTP
import MicroHTTPTesting
import TableJournal
import TableModel
import TableServer
import TableServerTesting
import Testing

/// `serve --journal`: every kind of change survives a restart, versions continue,
/// and the seed tables only fill an empty journal.
@Suite struct JournalAPITests {
    func withJournal(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-api-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    func journaledServer(_ directory: String, tables: [Table] = [fixtureTable()]) throws -> WebTableViewServer {
        try makeServer(tables: tables) { $0.journal = JournalOptions(directory: directory) }
    }

    @Test func everyKindOfChangeSurvivesARestart() throws {
        try withJournal { directory in
            var before: [String: [UInt8]] = [:]
            do {
                let server = try journaledServer(directory)
                let client = TestClient(router: server.router)
                let edits: [(HTTPMethod, String, String)] = [
                    (
                        .POST, "/api/tables/t/batch",
                        #"{"deleteRows": [[0, 1]], "insertRows": [{"at": [1, 0], "row": {"id": "n", "text": "N"}}]}"#
                    ),
                    (.PATCH, "/api/tables/t", #"{"title": "Renamed", "header": "Top"}"#),
                    (.POST, "/api/tables/t/sections/0/rows/2/select", ""),
                    (
                        .PUT, "/api/tables/t",
                        #"{"sections": [{"id": "b", "rows": [{"id": "b1", "text": "B1"}]}, {"id": "z"}]}"#
                    ),
                    (.POST, "/api/tables", #"{"id": "u", "title": "U"}"#),
                    (.POST, "/api/tables", #"{"id": "gone"}"#),
                    (.DELETE, "/api/tables/gone", ""),
                ]
                for (method, path, text) in edits {
                    let response = try client.request(method, path, headers: jsonHeaders, body: body(text))
                    #expect((200..<300).contains(response.status), "\(method) \(path): \(response.text)")
                }
                for path in ["/api/tables", "/api/tables/t", "/api/tables/u", "/api/tables/t/changes?since=0"] {
                    before[path] = try client.request(.GET, path).body
                }
                server.shutdown()
            }
            let server = try journaledServer(directory, tables: [])
            defer { server.shutdown() }
            let client = TestClient(router: server.router)
            for (path, body) in before {
                #expect(try client.request(.GET, path).text == String(decoding: body, as: UTF8.self), "\(path)")
            }
            let version = try #require(try client.request(.GET, "/api/tables/t").json["version"]?.int)
            let next = try client.request(.DELETE, "/api/tables/t/sections/1")
            #expect(try next.json["version"]?.int == version + 1)
            #expect(try client.request(.GET, "/api/tables/gone").status == 404)
        }
    }

    @Test func seedTablesOnlyFillAnEmptyJournal() throws {
        try withJournal { directory in
            do {
                let server = try journaledServer(directory, tables: [fixtureTable(id: "seed")])
                let client = TestClient(router: server.router)
                #expect(try client.request(.DELETE, "/api/tables/seed").status == 204)
                server.shutdown()
            }
            let server = try journaledServer(directory, tables: [fixtureTable(id: "seed"), fixtureTable(id: "other")])
            defer { server.shutdown() }
            let list = try TestClient(router: server.router).request(.GET, "/api/tables").json
            #expect(list["tables"]?[0] == nil)
        }
    }

    @Test func aDamagedJournalStopsStartUp() throws {
        try withJournal { directory in
            do {
                let server = try journaledServer(directory)
                let client = TestClient(router: server.router)
                for _ in 0..<3 {
                    _ = try client.request(
                        .POST, "/api/tables/t/sections/0/rows", headers: jsonHeaders, body: body(#"{"row": {}}"#))
                }
                server.shutdown()
            }
            let segment = try #require(
                try FileManager.default.contentsOfDirectory(atPath: directory)
                    .filter { $0.hasPrefix("segment-") }.sorted().first)
            let url = URL(fileURLWithPath: directory + "/" + segment)
            var bytes = [UInt8](try Data(contentsOf: url))
            bytes[40] ^= 0xFF
            try Data(bytes).write(to: url)
            #expect {
                try journaledServer(directory)
            } throws: { error in
                "\(error)".hasPrefix("journal: ") && "\(error)".contains("intact records follow")
            }
        }
    }
}
