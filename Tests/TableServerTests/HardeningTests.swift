import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing
@testable import TableServer

/// Defects from the outside audit (docs/RELIABILITY.md, "Hardening").
@Suite struct HardeningTests {
    @Test(arguments: ["1e309", "-1e400", String(repeating: "9", count: 400)])
    func numbersBeyondDoubleAre422WithTheirPath(_ number: String) throws {
        try withServer(.inProcess) { client in
            let height = try client.request(
                .POST, "/api/tables/t/batch", headers: jsonHeaders,
                body: body(#"{"insertRows": [{"at": [0, 0], "row": {"text": "x", "height": \#(number)}}]}"#))
            #expect(height.status == 422)
            let errors = try height.json["errors"]
            #expect(errors?[0]?["path"]?.string == "$.insertRows[0].row.height")
            #expect(errors?[0]?["message"]?.string?.hasPrefix("number out of range") == true)

            let field = try client.request(
                .POST, "/api/tables/t/batch", headers: jsonHeaders,
                body: body(#"{"insertRows": [{"at": [0, 0], "row": {"fields": {"n": [\#(number)]}}}]}"#))
            #expect(field.status == 422)
            #expect(try field.json["errors"]?[0]?["path"]?.string == "$.insertRows[0].row.fields.n[0]")

            let position = try client.request(
                .POST, "/api/tables/t/batch", headers: jsonHeaders,
                body: body(#"{"deleteRows": [[0, \#(number)]]}"#))
            #expect(position.status == 422)
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
        }
    }

    @Test func anInternalErrorAnswersAGenericDetailAndLogsTheErrorUnderItsID() throws {
        struct Leaky: Error, CustomStringConvertible {
            var description: String { "open(/var/secret/journal.wal) failed\nFAKE" }
        }
        let log = LogRecorder()
        let response = Respond.catching(logger: log.logger) { throw Leaky() }
        #expect(response.status == 500)
        guard case .bytes(let bytes) = response.body else {
            Issue.record("expected a body of bytes")
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("secret"))
        let requestID = try #require(response.headers["X-Request-Id"])
        #expect(text.contains(requestID))
        let problem = try JSONParser().parse(bytes)
        #expect(problem["type"]?.string == "internal")
        let logged = try #require(log.messages.first)
        #expect(logged.contains("/var/secret/journal.wal"))
        #expect(logged.contains(#"\u{a}FAKE"#))
        #expect(log.metadata.first?["request-id"] == .string(requestID))
    }
}
