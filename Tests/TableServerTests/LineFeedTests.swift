import MicroHTTP
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// Every JSON answer ends with a line feed, so `curl …/healthz; curl …/metrics`
/// prints two lines, not one run together — and it stays one JSON document.
@Suite struct LineFeedTests {
    @Test(arguments: [TestTransport.inProcess, .live])
    func everyJSONAnswerEndsItsLine(_ transport: TestTransport) throws {
        let large = Table(id: "large", sections: [Section(rows: (0..<1_500).map { Row(text: "\($0)") })])
        try withServer(transport, tables: [fixtureTable(), large]) { client in
            let answers: [(String, TestResponse)] = [
                ("healthz", try client.request(.GET, "/healthz")),
                ("list", try client.request(.GET, "/api/tables")),
                ("table", try client.request(.GET, "/api/tables/t")),
                ("table again (kept)", try client.request(.GET, "/api/tables/t")),
                ("large table, in pieces", try client.request(.GET, "/api/tables/large")),
                ("rows", try client.request(.GET, "/api/tables/t/sections/0/rows?limit=2")),
                ("change", try client.request(.DELETE, "/api/tables/t/sections/0/rows/0")),
                ("feed", try client.request(.GET, "/api/tables/t/changes?since=0")),
                ("openapi", try client.request(.GET, "/api/openapi.json")),
                ("not found", try client.request(.GET, "/api/tables/nope")),
                ("refused", try client.request(.DELETE, "/api/tables/t/sections/9")),
                (
                    "invalid",
                    try client.request(.POST, "/api/tables/t/batch", headers: jsonHeaders, body: body(#"{"x": 1}"#))
                ),
                ("405", try client.request(.PATCH, "/healthz")),
            ]
            for (name, answer) in answers {
                #expect(answer.body.last == UInt8(ascii: "\n"), "\(name)")
                #expect(answer.body.dropLast().last != UInt8(ascii: "\n"), "\(name): one line feed")
                #expect(throws: Never.self, "\(name)") { try answer.json }
            }
        }
    }
}
