import Foundation
import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing
@testable import TableServer

/// Large changes on event streams, the history's byte bound, the table limit
/// and the heap after large edits (docs/RELIABILITY.md, "Live updates and memory").
@Suite struct MemoryAndFeedTests {
    /// The audit's batch: 2,000 short rows, whose event (with their HTML) is over 1 MiB.
    static let largeBatch: [UInt8] = {
        let rows = (0..<2000).map { #"{"at": [0, \#($0)], "row": {"text": "r\#($0)"}}"# }
        return Array(#"{"insertRows": [\#(rows.joined(separator: ","))]}"#.utf8)
    }()

    func openStream(_ client: TestClient, lastEventID: Int? = nil) throws -> RawConnection {
        let connection = try client.connect()
        var headers: HTTPHeaders = ["Connection": "keep-alive"]
        if let lastEventID { headers.set("Last-Event-ID", "\(lastEventID)") }
        try connection.sendRequest(path: "/api/tables/t/events", headers: headers)
        #expect(try connection.readHead().status == 200)
        return connection
    }

    /// Reads until `count` whole events (comments left out) have arrived; answers them.
    func readEvents(_ connection: RawConnection, count: Int) -> String {
        func events(_ bytes: [UInt8]) -> [Substring] {
            let text = String(decoding: bytes, as: UTF8.self)
            let blocks = text.components(separatedBy: "\n\n").dropLast()
            return blocks.filter { !$0.hasPrefix(":") }.map { Substring($0 + "\n\n") }
        }
        let bytes = connection.readStream(timeout: .seconds(30)) { events($0).count >= count }
        return events(bytes).joined()
    }

    @Test func aPromptReaderGetsAnEventLargerThanItsBufferAndSoDoesAReplay() throws {
        try withServer(.live) { client in
            let live = try openStream(client)
            let edit = try client.request(.POST, "/api/tables/t/batch", headers: jsonHeaders, body: Self.largeBatch)
            #expect(edit.status == 200)
            // The audit's repro: reconnecting from before the large change.
            let replay = try openStream(client, lastEventID: 0)
            let replayed = readEvents(replay, count: 1)
            #expect(replayed.hasPrefix("event: update\nid: 1\n"))
            #expect(replayed.utf8.count > 1 << 20)

            #expect(try client.request(.DELETE, "/api/tables/t/sections/0/rows/0").status == 200)
            let received = readEvents(live, count: 2)
            #expect(received.utf8.count > 1 << 20)
            #expect(received.contains("id: 1\n") && received.contains("id: 2\n"))
            #expect(!live.isPeerClosed)
            #expect(readEvents(replay, count: 1).contains("id: 2\n"))
        }
    }

    @Test func aReplayTooLargeForTheStreamIsAReset() throws {
        try withServer(.live) { client in
            // Two large changes: the second would wait behind the first, past the stream's limit.
            for _ in 0..<2 {
                #expect(
                    try client.request(.POST, "/api/tables/t/batch", headers: jsonHeaders, body: Self.largeBatch).status
                        == 200)
            }
            let replay = try openStream(client, lastEventID: 0)
            let received = readEvents(replay, count: 1)
            #expect(received == "event: reset\ndata: {\"version\":2}\n\n")
        }
    }

    @Test func theHistoryIsBoundedInBytes() throws {
        func change(_ version: Int, size: Int) -> Change {
            Change(
                version: version, json: [UInt8](repeating: 0, count: size / 2),
                event: [UInt8](repeating: 0, count: size / 2))
        }
        var log = ChangeLog(capacity: 100, byteLimit: 100)
        for version in 1...10 { log.append(change(version, size: 30)) }
        #expect(log.count == 3)
        #expect(log.bytes == 90)
        #expect(log.changes(after: 7, current: 10)?.map(\.version) == [8, 9, 10])
        #expect(log.changes(after: 6, current: 10) == nil)
        log.append(change(11, size: 200))
        #expect(log.count == 0)
        #expect(log.bytes == 0)
        #expect(log.changes(after: 10, current: 11) == nil)
        #expect(log.changes(after: 11, current: 11)?.isEmpty == true)
    }

    @Test func changesPastTheByteBoundAre410() throws {
        let configure: (inout ServerOptions) -> Void = { $0.historyBytes = 64 << 10 }
        try withServer(.inProcess, configure: configure) { client in
            let edit = try client.request(.POST, "/api/tables/t/batch", headers: jsonHeaders, body: Self.largeBatch)
            #expect(edit.status == 200)
            #expect(try client.request(.DELETE, "/api/tables/t/sections/0/rows/0").status == 200)
            #expect(try client.request(.GET, "/api/tables/t/changes?since=0").status == 410)
            #expect(try client.request(.GET, "/api/tables/t/changes?since=1").status == 200)
        }
    }

    @Test func creatingTablesStopsAtTheLimit() throws {
        let configure: (inout ServerOptions) -> Void = { $0.maxTables = 2 }
        try withServer(.inProcess, configure: configure) { client in
            let table = #"{"id": "%@", "title": "T", "sections": []}"#
            let first = try client.request(
                .POST, "/api/tables", headers: jsonHeaders, body: body(table.replacingOccurrences(of: "%@", with: "u")))
            #expect(first.status == 201)
            let second = try client.request(
                .POST, "/api/tables", headers: jsonHeaders, body: body(table.replacingOccurrences(of: "%@", with: "v")))
            #expect(second.status == 409)
            #expect(try second.json["type"]?.string == "too-many-tables")
            #expect(try client.request(.DELETE, "/api/tables/u").status == 204)
            let third = try client.request(
                .POST, "/api/tables", headers: jsonHeaders, body: body(table.replacingOccurrences(of: "%@", with: "v")))
            #expect(third.status == 201)
        }
    }
}
