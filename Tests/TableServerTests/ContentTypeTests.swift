import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// The usual mix-ups of `Content-Type` (docs/API.md, "Content types"): a
/// JSON body sent as CSV or a CSV body sent as JSON is told the right type,
/// and a 415 names the types the route takes, in its detail and in `Accept`.
@Suite struct ContentTypeTests {
    static let csv = "text,n\nOne,1\nTwo,2\n"
    static let table = #"{"id": "x", "sections": [{"rows": [{"text": "a"}]}]}"#

    @Test(arguments: [(HTTPMethod.POST, "/api/tables?table-id=x"), (.PUT, "/api/tables/t")])
    func jsonSentAsCSVIsToldToSendJSON(_ method: HTTPMethod, _ path: String) throws {
        try withServer(.inProcess) { client in
            let refused = try client.request(
                method, path, headers: ["Content-Type": "text/csv"], body: body("\n " + Self.table))
            #expect(refused.status == 415)
            #expect(try refused.json["type"]?.string == "unsupported-media-type")
            #expect(
                try refused.json["detail"]?.string
                    == "the body is JSON, not text/csv: send it with Content-Type: application/json")
            #expect(try client.request(.GET, "/api/tables/x").status == 404)
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
        }
    }

    @Test(arguments: [(HTTPMethod.POST, "/api/tables?table-id=x"), (.PUT, "/api/tables/t")])
    func csvSentAsJSONIsToldToSendCSV(_ method: HTTPMethod, _ path: String) throws {
        try withServer(.inProcess) { client in
            let refused = try client.request(method, path, headers: jsonHeaders, body: body(Self.csv))
            #expect(refused.status == 415)
            #expect(
                try refused.json["detail"]?.string
                    == "the body is CSV, not application/json: send it with Content-Type: text/csv")
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)

            // Malformed JSON is still malformed JSON.
            let malformed = try client.request(method, path, headers: jsonHeaders, body: body(#"{"id": "x",}"#))
            #expect(malformed.status == 400)
            #expect(try malformed.json["type"]?.string == "malformed-json")
        }
    }

    @Test func a415NamesTheTypesTheRouteTakes() throws {
        try withServer(.inProcess) { client in
            let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
            let table = try client.request(.POST, "/api/tables", headers: form, body: body("id=x"))
            #expect(table.status == 415)
            #expect(table.headers["Accept"] == "application/json, text/csv")
            #expect(
                try table.json["detail"]?.string
                    == #"send the body with Content-Type: application/json or text/csv (got "application/x-www-form-urlencoded")"#
            )

            let batch = try client.request(.POST, "/api/tables/t/batch", body: body(#"{"deleteRows": [[0, 0]]}"#))
            #expect(batch.status == 415)
            #expect(batch.headers["Accept"] == "application/json")
            #expect(try batch.json["detail"]?.string == "send the body with Content-Type: application/json (got none)")

            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
        }
    }
}
