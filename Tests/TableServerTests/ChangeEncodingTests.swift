import JSON
import MicroHTTP
import TableModel
import TableRendering
import TableServerTesting
import Testing
@testable import TableServer

/// An edit's change is encoded once (`AppliedEdit.json`) and reused: the answer,
/// `/changes` and the event's data carry the same `{"version", "batch"}`, the
/// event adding only its `html`.
@Suite struct ChangeEncodingTests {
    func makeStore() throws -> TableStore {
        let renderer = try TableRenderer(templatesDirectory: packageRoot.appendingPathComponent("Templates").path)
        let store = TableStore(history: 100, renderer: renderer)
        let rows = (0..<5).map { Row(id: "r\($0)", text: "Row \($0)") }
        try store.create(Table(id: "t", sections: [Section(id: "s", rows: rows)]))
        return store
    }

    /// The data line of one event, parsed.
    func eventData(_ event: [UInt8]) throws -> JSONValue {
        let text = String(decoding: event, as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("data: ") })
        return try JSONParser().parse(Array(line.dropFirst(6).utf8))
    }

    @Test func aMoveIsEncodedOnceForTheAnswerTheFeedAndTheEvent() throws {
        let store = try makeStore()
        let edit = try store.apply("t", ifMatch: nil) { _ in
            Batch(moveRows: [.init(from: TableIndexPath(0, 4), to: TableIndexPath(0, 1))])
        }
        #expect(edit.version == 1)
        let change = try #require((try store.changes("t", since: 0)).changes?.first)
        #expect(change.json == edit.json)
        #expect(
            try JSONParser().parse(edit.json)["batch"]?["moveRows"]?[0]?["to"] == .array([.integer(0), .integer(1)]))

        // The event is `update`, with id 1, and its data is the change's JSON with `html` added.
        let text = String(decoding: change.event, as: UTF8.self)
        #expect(
            text.hasPrefix(
                "event: update\nid: 1\ndata: " + String(decoding: edit.json.dropLast(), as: UTF8.self) + #","html":"#))
        #expect(text.hasSuffix("}\n\n"))
        let data = try eventData(change.event)
        #expect(data["version"] == .integer(1))
        #expect(data["batch"] == (try JSONParser().parse(edit.json))["batch"])
        #expect(
            data["html"] == .object(JSONObject([JSONMember("sections", .array([])), JSONMember("rows", .array([]))])))
    }

    @Test func aReloadCarriesTheRowsHTMLAfterTheSameJSON() throws {
        let store = try makeStore()
        let edit = try store.apply("t", ifMatch: nil) { _ in
            Batch(reloadRows: [.init(at: TableIndexPath(0, 2), row: Row(id: "r2", text: "<i>changed</i>"))])
        }
        let change = try #require((try store.changes("t", since: 0)).changes?.first)
        let data = try eventData(change.event)
        #expect(data["batch"] == (try JSONParser().parse(edit.json))["batch"])
        #expect(data["html"]?["rows"]?[0]?["at"] == .array([.integer(0), .integer(2)]))
        let html = try #require(data["html"]?["rows"]?[0]?["html"]?.string)
        #expect(html.contains("&lt;i&gt;changed&lt;/i&gt;"))
    }

    @Test func aNoOpAnswersTheCurrentVersionAndPublishesNothing() throws {
        let store = try makeStore()
        try store.apply("t", ifMatch: nil) { _ in Batch(deleteRows: [TableIndexPath(0, 0)]) }
        let edit = try store.apply("t", ifMatch: nil) { _ in Batch() }
        #expect(edit.version == 1)
        #expect(try JSONParser().parse(edit.json)["version"] == .integer(1))
        #expect((try store.changes("t", since: 0)).changes?.count == 1)
    }

    @Test func headerFieldTextIsTrimmedOfSpacesAndTabsOnly() {
        #expect(" \t\"1\" \t".trimmingSpaces() == "\"1\"")
        #expect("\t café au lait ".trimmingSpaces() == "café au lait")
        #expect(" \t ".trimmingSpaces() == "")
        #expect("".trimmingSpaces() == "")
        #expect("a".trimmingSpaces() == "a")
        #expect("\u{A0}x\u{A0}".trimmingSpaces() == "\u{A0}x\u{A0}")
        #expect("  w/\"2\", \"3\"".split(separator: ",")[1].trimmingSpaces() == "\"3\"")
    }

    @Test func theMediaTypeIsLowercasedWithoutItsParameters() {
        #expect(HTTPRequest.mediaType("application/json") == "application/json")
        #expect(HTTPRequest.mediaType(" Application/JSON ; charset=utf-8") == "application/json")
        #expect(HTTPRequest.mediaType("application/merge-patch+json;q=1") == "application/merge-patch+json")
        #expect(HTTPRequest.mediaType("") == "")
        #expect(HTTPRequest.mediaType(";") == "")
    }
}
