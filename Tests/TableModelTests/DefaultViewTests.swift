import JSON
import Testing
@testable import TableModel

/// A table's `defaultView` (docs/FORMAT.md, "Table"): decoded strictly, written
/// back, changed by PATCH and by a whole snapshot like the other properties.
@Suite("Views: a table's default view")
struct DefaultViewTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(Array(text.utf8)) }

    @Test("decoded from sort and group, written back as given")
    func roundTrip() throws {
        let table = try ModelDecoder.table(
            from: Self.parse(
                #"{"id": "t", "defaultView": {"sort": "-fields.pop,text", "group": "detail"}, "sections": []}"#))
        #expect(
            table.defaultView
                == TableQuery(
                    sort: [ViewSortKey(key: .field("pop"), descending: true), ViewSortKey(key: .text)],
                    group: ViewSortKey(key: .detail)))
        let json = String(decoding: table.jsonBytes, as: UTF8.self)
        #expect(json.contains(#""defaultView":{"sort":"-fields.pop,text","group":"detail"}"#))
        #expect(try ModelDecoder.table(from: Self.parse(json)) == table)
        let plain = String(decoding: Table(id: "t").jsonBytes, as: UTF8.self)
        #expect(!plain.contains("defaultView"))
    }

    @Test("a bad key, an unknown member or q is refused with its path")
    func refusals() throws {
        for (text, path) in [
            (#"{"sort": "population"}"#, "$.defaultView.sort"),
            (#"{"group": 3}"#, "$.defaultView.group"),
            (#"{"q": "x"}"#, "$.defaultView"),
        ] {
            #expect {
                try ModelDecoder.table(from: Self.parse(#"{"id": "t", "defaultView": \#(text)}"#))
            } throws: { error in
                (error as? ValidationError)?.issues.contains { $0.path == path } == true
            }
        }
    }

    @Test("PATCH sets and clears it; a snapshot carries it")
    func changes() throws {
        var table = Table(id: "t")
        let set = try ModelDecoder.properties(from: Self.parse(#"{"defaultView": {"group": "text"}}"#))
        _ = try table.apply(Batch(properties: set))
        #expect(table.defaultView == TableQuery(group: ViewSortKey(key: .text)))
        let cleared = try ModelDecoder.properties(from: Self.parse(#"{"defaultView": null}"#))
        _ = try table.apply(Batch(properties: cleared))
        #expect(table.defaultView == nil)
        var next = table
        next.defaultView = TableQuery(sort: [ViewSortKey(key: .id)])
        DiffFixture.expectDiff(from: table, to: next)
    }

    @Test("an empty sort or group asks for none")
    func emptyParameters() throws {
        #expect(try TableQuery(parameters: ["sort": "", "group": ""]).isEmpty)
    }
}
