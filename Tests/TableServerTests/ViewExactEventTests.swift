import JSON
import MicroHTTP
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// A view's event stream says what the read of the view says, and only what
/// changed (docs/API.md, "Views"): a group's header as the read heads it;
/// nothing for rows that move in the table but keep their places in the view,
/// or for a row reloaded as it was.
@Suite(.timeLimit(.minutes(1))) struct ViewExactEventTests {
    let stream = EventStreams()
    let events = ViewEventTests()

    func post(_ client: TestClient, _ path: String, _ json: String) throws {
        let response = try client.request(.POST, path, headers: jsonHeaders, body: body(json))
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
    }

    @Test func aGroupInsertedByOneBatchIsHeadedAsTheReadHeadsIt() throws {
        let table = Table(id: "e", sections: [Section(id: "s")])
        try withServer(.live, tables: [table]) { client in
            let view = try stream.subscribe(client, "/api/tables/e/events?group=text&sort=-fields.w")
            defer { view.close() }
            _ = stream.read(view, until: "\n\n")
            try post(
                client, "/api/tables/e/batch",
                #"{"insertRows": [{"at": [0,0], "row": {"id":"r1","text":"apple","fields":{"w":"a"}}},"#
                    + #"{"at": [0,1], "row": {"id":"r2","text":"Apple","fields":{"w":"b"}}}]}"#)
            let update = try events.lastData(stream.read(view, until: "id: 1\n"))
            let inserted = try #require(update["steps"]?[0]?["batch"]?["insertSections"]?[0]?["section"])
            let read = try client.request(.GET, "/api/tables/e/sections?group=text&sort=-fields.w").json
            #expect(read["sections"]?[0]?["header"]?.string == "Apple")
            #expect(inserted["header"]?.string == "Apple")
        }
    }

    /// A number group and a section group, inserted by a live update, are
    /// headed, indexed and valued as the read of the view heads them, and its
    /// HTML writes the number for the page to format.
    @Test(arguments: [
        ("fields.n", "1234567", "1M", JSONValue.integer(1_234_567)),
        ("-fields.n", "1234567", "1M", .integer(1_234_567)),
        ("section", "Second", "2", .string("s2")),
    ])
    func aGroupInsertedLiveIsHeadedAsTheReadHeadsIt(group: String, header: String, title: String, value: JSONValue)
        throws
    {
        let table = Table(
            id: "g",
            sections: [
                Section(
                    id: "s1", header: "First", indexTitle: "1",
                    rows: [Row(id: "a", text: "A", fields: JSONObject([JSONMember("n", .integer(5))]))]),
                Section(id: "s2", header: "Second", indexTitle: "2"),
            ])
        try withServer(.live, tables: [table]) { client in
            let view = try stream.subscribe(client, "/api/tables/g/events?group=\(group)")
            defer { view.close() }
            _ = stream.read(view, until: "\n\n")
            try post(
                client, "/api/tables/g/batch",
                #"{"insertRows": [{"at": [1,0], "row": {"id":"b","text":"B","fields":{"n":1234567}}}]}"#)
            let update = try events.lastData(stream.read(view, until: "id: 1\n"))
            let step = try #require(update["steps"]?[0])
            let inserted = try #require(step["batch"]?["insertSections"]?[0]?["section"])
            let at = try #require(step["batch"]?["insertSections"]?[0]?["at"]?.int)
            let read = try client.request(.GET, "/api/tables/g/sections?group=\(group)").json
            let readSection = try #require(read["sections"]?[at])
            for section in [inserted, readSection] {
                #expect(section["header"]?.string == header)
                #expect(section["indexTitle"]?.string == title)
                #expect(section["groupValue"] == value)
            }
            let html = try #require(step["html"]?["sections"]?[0]?["html"]?.string)
            #expect(
                html.contains(#"<data class="group-number" value="1234567">1,234,567</data>"#) == (group != "section"))
            #expect(html.contains("<th scope=\"rowgroup\">Second</th>") == (group == "section"))
        }
    }

    @Test func rowsThatKeepTheirPlacesInTheViewSendNothing() throws {
        let table = Table(
            id: "f",
            sections: [
                Section(
                    id: "s",
                    rows: [Row(id: "b", text: "banana"), Row(id: "c", text: "apple pie"), Row(id: "a", text: "apple")])
            ])
        try withServer(.live, tables: [table]) { client in
            let view = try stream.subscribe(client, "/api/tables/f/events?sort=text")
            defer { view.close() }
            _ = stream.read(view, until: "\n\n")
            // Version 1: the first two rows swapped; the view stays a, c, b.
            try post(
                client, "/api/tables/f/batch", #"{"moveRows": [{"from":[0,0],"to":[0,1]},{"from":[0,1],"to":[0,0]}]}"#)
            // Version 2: a row reloaded as it is.
            let same = try client.request(
                .PUT, "/api/tables/f/items/a", headers: jsonHeaders, body: body(#"{"text": "apple"}"#))
            #expect(same.status == 200)
            // Version 3: a row of the view renamed in place.
            let renamed = try client.request(
                .PUT, "/api/tables/f/items/a", headers: jsonHeaders, body: body(#"{"text": "aardvark"}"#))
            #expect(renamed.status == 200)
            let text = stream.read(view, until: "id: 3\n")
            #expect(!text.contains("id: 1\n"))
            #expect(!text.contains("id: 2\n"))
            let update = try events.lastData(text)
            #expect(update["since"]?.int == 0)
            let batch = try #require(update["steps"]?[0]?["batch"])
            #expect(batch["moveRows"] == nil)
            #expect(batch["reloadRows"]?[0]?["at"] == .array([.integer(0), .integer(0)]))
            #expect(update["steps"]?[1] == nil)
        }
    }

    /// A row whose group value becomes one no other row has stays in the view:
    /// it is moved into its new group's section, never deleted and inserted
    /// again (UIKit moves no row into a section inserted, nor out of one
    /// deleted, in the same batch: the update has the snapshot diff's steps).
    @Test func aRowIntoANewGroupIsMovedNotDeletedAndInserted() throws {
        let table = Table(
            id: "m",
            sections: [
                Section(id: "s", rows: [Row(id: "a", text: "apple"), Row(id: "b", text: "banana")])
            ])
        try withServer(.live, tables: [table]) { client in
            let view = try stream.subscribe(client, "/api/tables/m/events?group=text")
            defer { view.close() }
            _ = stream.read(view, until: "\n\n")
            let edit = try client.request(
                .PUT, "/api/tables/m/items/b", headers: jsonHeaders, body: body(#"{"text": "cherry"}"#))
            #expect(edit.status == 200)
            let update = try events.lastData(stream.read(view, until: "id: 1\n"))
            let steps = try #require(update["steps"]?.array)
            let batches = steps.compactMap { $0["batch"] }
            #expect(batches.compactMap { $0["moveRows"]?.array }.joined().count == 1)
            #expect(batches.allSatisfy { $0["deleteRows"] == nil && $0["insertRows"] == nil })
            #expect(batches.compactMap { $0["insertSections"]?[0]?["section"]?["header"]?.string } == ["cherry"])
            let read = try client.request(.GET, "/api/tables/m/sections?group=text").json
            #expect(read["sections"]?.array?.compactMap { $0["header"]?.string } == ["apple", "cherry"])
        }
    }
}
