import JSON
import MicroHTTP
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// A table as CSV: asked for by `?format=csv` or `Accept`, 406 for what the
/// server cannot answer, and CSV bodies that create and replace tables.
@Suite struct CSVAPITests {
    static let fixtureCSV =
        "section,id,text,detail\r\n" + (0..<7).map { "A,a\($0),A\($0),\r\n" }.joined() + "B,b0,B0,\r\nB,b1,B1,\r\n"

    @Test(arguments: [TestTransport.inProcess, .live])
    func aTableIsAnsweredAsCSVForALinkOrAnAccept(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let link = try client.request(.GET, "/api/tables/t?format=csv")
            #expect(link.status == 200)
            #expect(link.headers["Content-Type"] == "text/csv; charset=utf-8; header=present")
            #expect(link.headers["Content-Disposition"] == "attachment; filename=\"t.csv\"")
            #expect(link.headers["ETag"] == "\"0-csv\"")
            #expect(link.headers["Vary"] == "Accept, Accept-Encoding")
            #expect(link.text == Self.fixtureCSV)
            let accepted = try client.request(.GET, "/api/tables/t", headers: ["Accept": "text/csv"])
            #expect(accepted.text == Self.fixtureCSV)
            #expect(accepted.headers["Content-Disposition"] == nil)
            let cached = try client.request(.GET, "/api/tables/t?format=csv", headers: ["If-None-Match": "\"0-csv\""])
            #expect(cached.status == 304)
            let json = try client.request(.GET, "/api/tables/t", headers: ["If-None-Match": "\"0-csv\""])
            #expect(json.status == 200, "the JSON's tag is not the CSV's")
        }
    }

    @Test(arguments: [
        ("", "application/json"), ("*/*", "application/json"),
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "application/json"),
        ("application/json, text/csv;q=0.5", "application/json"),
        ("text/csv;q=0.9, application/json;q=0.4", "text/csv"),
        ("text/*", "text/csv"), ("application/problem+json", "application/json"),
    ])
    func acceptChoosesTheForm(_ pair: (accept: String, type: String)) throws {
        try withServer(.inProcess) { client in
            let response = try client.request(
                .GET, "/api/tables/t", headers: pair.accept.isEmpty ? [:] : ["Accept": pair.accept])
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"]?.hasPrefix(pair.type) == true, "\(pair.accept)")
        }
    }

    @Test func anAcceptTheServerCannotMeetIs406() throws {
        try withServer(.inProcess) { client in
            for accept in ["text/html", "image/png", "application/json;q=0, text/csv;q=0"] {
                let response = try client.request(.GET, "/api/tables/t", headers: ["Accept": accept])
                #expect(response.status == 406, "\(accept)")
                #expect(try response.json["type"]?.string == "not-acceptable")
            }
            #expect(try client.request(.GET, "/api/tables/t?format=xml").status == 400)
        }
    }

    /// A JSON answer kept for plain reads is not what a request for CSV, or
    /// for a form the server cannot answer, gets.
    @Test func aKeptAnswerIsNotGivenToAnotherAccept() throws {
        try withServer(.live) { client in
            for _ in 0..<3 { #expect(try client.request(.GET, "/api/tables/t").status == 200) }
            let csv = try client.request(.GET, "/api/tables/t", headers: ["Accept": "text/csv"])
            #expect(csv.headers["Content-Type"] == "text/csv; charset=utf-8; header=present")
            #expect(try client.request(.GET, "/api/tables/t", headers: ["Accept": "image/png"]).status == 406)
            let browser = try client.request(.GET, "/api/tables/t", headers: ["Accept": "text/html,*/*;q=0.8"])
            #expect(browser.headers["Content-Type"] == "application/json; charset=utf-8")
        }
    }

    @Test func largeExportsAreSentInPiecesAndCompressed() throws {
        let rows = (0..<5000).map {
            Row(id: "r\($0)", text: "row \($0)", fields: JSONObject([JSONMember("n", .integer($0))]))
        }
        let table = Table(id: "big", sections: [Section(header: "S", rows: rows)])
        try withServer(.live, tables: [table]) { client in
            let plain = try client.request(.GET, "/api/tables/big?format=csv")
            #expect(plain.headers["Transfer-Encoding"] == "chunked")
            #expect(plain.text.hasPrefix("section,id,text,detail,n\r\nS,r0,row 0,,0\r\n"))
            #expect(plain.text.split(separator: "\r\n").count == 5001)
            let coded = try client.request(.GET, "/api/tables/big?format=csv", headers: ["Accept-Encoding": "gzip"])
            #expect(coded.headers["Content-Encoding"] == "gzip")
            #expect(coded.body.count < plain.body.count / 3)
            #expect(try coded.decodedBody() == plain.body)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func aCSVBodyCreatesATableWithTheImportOptions(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let csv = "code,name,state,pop\nny,New York,NY,8336817\nbuf,Buffalo,NY,278349\nla,Los Angeles,CA,3979576\n"
            let created = try client.request(
                .POST, "/api/tables?table-id=cities&id=code&text=name&section=state&sort=-pop&style=grouped",
                headers: ["Content-Type": "text/csv"], body: body(csv))
            #expect(created.status == 201)
            #expect(created.headers["Location"] == "/api/tables/cities")
            let json = try created.json
            #expect(json["style"]?.string == "grouped")
            #expect(json["sections"]?[0]?["header"]?.string == "NY")
            #expect(json["sections"]?[0]?["rows"]?[0]?["id"]?.string == "ny")
            #expect(json["sections"]?[0]?["rows"]?[1]?["fields"]?["pop"]?.int == 278349)
            let noID = try client.request(.POST, "/api/tables", headers: ["Content-Type": "text/csv"], body: body(csv))
            #expect(noID.status == 400)
            let badStyle = try client.request(
                .POST, "/api/tables?table-id=x&style=fancy", headers: ["Content-Type": "text/csv"], body: body(csv))
            #expect(badStyle.status == 400)
            #expect(try client.request(.GET, "/api/tables/x").status == 404, "a refused upload changes nothing")
            let jsonWithBadOption = try client.request(
                .PUT, "/api/tables/t?style=fancy", headers: ["Content-Type": "application/json"],
                body: body(#"{"id":"t"}"#))
            #expect(jsonWithBadOption.status == 400, "a malformed option is refused whatever the body")
        }
    }

    @Test func aCSVBodyOverTheLimitIs413AndChangesNothing() throws {
        try withServer(.live, configure: { $0.maxBodySize = 1024 }) { client in
            let csv = "text\n" + (0..<300).map { "row \($0)\n" }.joined()
            let created = try client.request(
                .POST, "/api/tables?table-id=big", headers: ["Content-Type": "text/csv"], body: body(csv))
            #expect(created.status == 413)
            let replaced = try client.request(
                .PUT, "/api/tables/t", headers: ["Content-Type": "text/csv"], body: body(csv))
            #expect(replaced.status == 413)
            #expect(try client.request(.GET, "/api/tables/big").status == 404)
            #expect(try client.request(.GET, "/api/tables/t").json["version"]?.int == 0)
        }
    }

    @Test func aBadCSVBodyIs422WithEveryProblemUpToTwenty() throws {
        try withServer(.inProcess) { client in
            let csv = "name,id\n" + (0..<25).map { "n\($0)\n" }.joined() + "x\"y,z\n"
            let refused = try client.request(
                .POST, "/api/tables?table-id=bad", headers: ["Content-Type": "text/csv; charset=utf-8"], body: body(csv)
            )
            #expect(refused.status == 422)
            let errors = try #require(try refused.json["errors"]?.array)
            #expect(errors.count == 21)
            #expect(errors[0]["path"]?.string == "line 2")
            #expect(errors[0]["message"]?.string == "1 field, but the header has 2")
            #expect(errors[20]["message"]?.string == "and 6 more problems")
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func aCSVBodyReplacesATableAsASnapshot(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            // The export, one row changed, one deleted, one added: a diff, as a JSON snapshot makes.
            var csv = try client.request(.GET, "/api/tables/t?format=csv").text
            csv = csv.replacingOccurrences(of: "A,a1,A1,", with: "A,a1,A one,")
            csv = csv.replacingOccurrences(of: "B,b0,B0,\r\n", with: "")
            csv += "B,b2,B2,\r\n"
            let replaced = try client.request(
                .PUT, "/api/tables/t", headers: ["Content-Type": "text/csv", "If-Match": "\"0\""], body: body(csv))
            #expect(replaced.status == 200)
            let json = try replaced.json
            #expect(json["version"]?.int == 1)
            var kinds: Set<String> = []
            for change in json["changes"]?.array ?? [] {
                if case .object(let batch) = change["batch"] { kinds.formUnion(batch.keys) }
            }
            #expect(
                kinds == ["deleteRows", "insertRows", "reloadRows", "animation"],
                "row by row, sections matched by header: \(String(decoding: replaced.body, as: UTF8.self))")
            let table = try client.request(.GET, "/api/tables/t").json
            #expect(table["sections"]?[0]?["rows"]?[1]?["text"]?.string == "A one")
            #expect(table["sections"]?[1]?["rows"]?[1]?["id"]?.string == "b2")
            #expect(table["title"]?.string == "Fixture", "the table's properties are the snapshot's")
        }
    }
}
