import Foundation
import JSON
import MicroHTTPTesting
import TableJournal
import TableModel
import TableServer
import TableServerTesting
import Testing

/// `POST …/rows/{r}/press` and `POST …/items/{rowID}/press` (docs/API.md,
/// "Accessory buttons"): a press of a row's accessory button is a versioned
/// change that edits no row, in the answer and the change feed, refused in
/// UIKit's words for a row without a button.
@Suite struct PressAPITests {
    static func settings() -> Table {
        Table(
            id: "settings", style: .grouped,
            sections: [
                Section(
                    id: "updates",
                    rows: [
                        Row(id: "update-now", text: "iOS 26.2", accessoryView: .button(title: "Update Now")),
                        Row(id: "wifi", text: "Wi-Fi", accessoryView: .switch(isOn: true, isEnabled: true)),
                        Row(text: "No id", accessoryView: .button(title: "Go")),
                    ])
            ])
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func aPressIsAVersionedChangeInTheAnswerAndTheFeed(_ transport: TestTransport) throws {
        try withServer(transport, tables: [Self.settings()]) { client in
            let byPosition = try client.request(.POST, "/api/tables/settings/sections/0/rows/0/press")
            #expect(byPosition.status == 200)
            #expect(byPosition.headers["ETag"] == "\"1\"")
            #expect(
                byPosition.text.trimmingCharacters(in: .newlines)
                    == #"{"version":1,"batch":{"press":{"at":[0,0],"id":"update-now"},"animation":"none"}}"#)

            let byID = try client.request(
                .POST, "/api/tables/settings/items/update-now/press", headers: ["If-Match": "\"1\""])
            #expect(
                byID.text.trimmingCharacters(in: .newlines)
                    == #"{"version":2,"batch":{"press":{"at":[0,0],"id":"update-now"},"animation":"none"}}"#)

            let anonymous = try client.request(.POST, "/api/tables/settings/sections/0/rows/2/press")
            #expect(
                anonymous.text.trimmingCharacters(in: .newlines)
                    == #"{"version":3,"batch":{"press":{"at":[0,2]},"animation":"none"}}"#)

            let table = try client.request(.GET, "/api/tables/settings").json
            #expect(table["version"]?.int == 3)
            #expect(table["sections"]?[0]?["rows"]?[0]?["accessoryView"]?["title"]?.string == "Update Now")

            let feed = try client.request(.GET, "/api/tables/settings/changes?since=1").text.trimmingCharacters(
                in: .newlines)
            #expect(
                feed
                    == #"{"version":3,"changes":[{"version":2,"batch":{"press":{"at":[0,0],"id":"update-now"},"animation":"none"}},"#
                    + #"{"version":3,"batch":{"press":{"at":[0,2]},"animation":"none"}}]}"#)
        }
    }

    @Test func aPressHonoursIfMatchAndChangesNothingWhenStale() throws {
        try withServer(.inProcess, tables: [Self.settings()]) { client in
            let stale = try client.request(
                .POST, "/api/tables/settings/items/update-now/press", headers: ["If-Match": "\"7\""])
            #expect(stale.status == 412)
            #expect(try client.request(.GET, "/api/tables/settings").json["version"]?.int == 0)
        }
    }

    @Test func aPressNeedsTheEditTokenAndIsRefusedCrossSite() throws {
        try withServer(.inProcess, tables: [Self.settings()], configure: { $0.token = "secret" }) { client in
            let path = "/api/tables/settings/items/update-now/press"
            #expect(try client.request(.POST, path).status == 401)
            let crossSite = try client.request(
                .POST, path, headers: ["Authorization": "Bearer secret", "Origin": "http://evil.example"])
            #expect(crossSite.status == 403)
            #expect(try client.request(.POST, path, headers: ["Authorization": "Bearer secret"]).status == 200)
        }
    }

    @Test(arguments: [
        (
            "/api/tables/settings/sections/0/rows/1/press", 409, "not-a-button",
            #"attempt to press the accessory button of row 1 in section 0 of table "settings", whose accessoryView is not a UIButton"#
        ),
        (
            "/api/tables/settings/items/wifi/press", 409, "not-a-button",
            #"attempt to press the accessory button of item "wifi" of table "settings", whose accessoryView is not a UIButton"#
        ),
        (
            "/api/tables/settings/items/nope/press", 409, "unknown-id",
            #"attempt to press the accessory button of item "nope" of table "settings", which is not in the table"#
        ),
        (
            "/api/tables/settings/sections/0/rows/9/press", 404, "not-found",
            #"table "settings" has no row 9 in section 0"#
        ),
    ])
    func refusalsChangeNothing(path: String, status: Int, type: String, detail: String) throws {
        try withServer(.inProcess, tables: [Self.settings()]) { client in
            let refused = try client.request(.POST, path)
            #expect(refused.status == status)
            #expect(try refused.json["type"]?.string == type)
            #expect(try refused.json["detail"]?.string == detail)
            #expect(try client.request(.GET, "/api/tables/settings").json["version"]?.int == 0)
        }
    }

    @Test func aBatchCannotCarryAPress() throws {
        try withServer(.inProcess, tables: [Self.settings()]) { client in
            let refused = try client.request(
                .POST, "/api/tables/settings/batch", headers: jsonHeaders, body: body(#"{"press": {"at": [0, 0]}}"#))
            #expect(refused.status == 422)
            #expect(try client.request(.GET, "/api/tables/settings").json["version"]?.int == 0)
        }
    }

    @Test func aPressSurvivesARestartInTheJournal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("press-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let feed: String
        do {
            let server = try makeServer(tables: [Self.settings()]) { $0.journal = JournalOptions(directory: directory) }
            let client = TestClient(router: server.router)
            #expect(try client.request(.POST, "/api/tables/settings/items/update-now/press").status == 200)
            feed = try client.request(.GET, "/api/tables/settings/changes?since=0").text
            server.shutdown()
        }
        let server = try makeServer(tables: []) { $0.journal = JournalOptions(directory: directory) }
        defer { server.shutdown() }
        let client = TestClient(router: server.router)
        #expect(try client.request(.GET, "/api/tables/settings/changes?since=0").text == feed)
        #expect(feed.contains(#""press":{"at":[0,0],"id":"update-now"}"#))
        #expect(try client.request(.POST, "/api/tables/settings/sections/0/rows/0/press").json["version"]?.int == 2)
    }
}

extension EventStreamAPITests {
    /// A press is a `press` event with the change's id, replayed after a
    /// Last-Event-ID like any other change.
    @Test func aPressIsAPressEventLiveAndReplayed() throws {
        try withServer(.live, tables: [PressAPITests.settings()]) { client in
            let stream = try streams.subscribe(client, "/api/tables/settings/events")
            defer { stream.close() }
            #expect(try client.request(.POST, "/api/tables/settings/items/update-now/press").status == 200)
            let live = streams.read(stream, until: #""rows":[]}}"# + "\n\n")
            #expect(
                live.hasSuffix(
                    "event: press\nid: 1\n"
                        + #"data: {"version":1,"batch":{"press":{"at":[0,0],"id":"update-now"},"animation":"none"},"html":{"sections":[],"rows":[]}}"#
                        + "\n\n"))

            #expect(
                try client.request(
                    .POST, "/api/tables/settings/items/wifi/switch", headers: jsonHeaders, body: body(#"{"on": false}"#)
                ).status == 200)
            #expect(try client.request(.POST, "/api/tables/settings/sections/0/rows/2/press").status == 200)
            let resumed = try streams.subscribe(client, "/api/tables/settings/events", headers: "Last-Event-ID: 1\r\n")
            defer { resumed.close() }
            let replay = streams.read(resumed, until: #"{"press":{"at":[0,2]},"animation":"none"}"#)
            #expect(replay.contains("event: update\nid: 2\n"))
            #expect(!replay.contains("id: 1\n"))
            #expect(
                replay.contains(
                    "event: press\nid: 3\n" + #"data: {"version":3,"batch":{"press":{"at":[0,2]},"animation":"none"}"#))
        }
    }
}
