import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// What caches in front of the server are told (docs/API.md, Caching): live
/// answers are revalidated, errors are never stored, and a closed range of
/// the change feed is kept for a year.
@Suite struct CacheHeaderTests {
    private static let liveReads = [
        "/", "/tables/t", "/tables/t?style=grouped", "/tables/t/sections/0/rows", "/tables/t/sections/0",
        "/api/tables", "/api/tables/t", "/api/tables/t/sections", "/api/tables/t/sections/0/rows",
        "/api/tables/t/sections/0/rows/0", "/api/tables/t/changes?since=0",
    ]

    private func edit(_ client: TestClient, _ index: Int) throws {
        let response = try client.request(
            .POST, "/api/tables/t/batch", headers: jsonHeaders,
            body: body(
                #"""
                {"insertRows": [{"at": [0, 0], "row": {"id": "n\#(index)", "text": "N\#(index)"}}]}
                """#))
        #expect(response.status == 200)
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func liveAnswersAreRevalidated(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            for path in Self.liveReads {
                let response = try client.request(.GET, path)
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["Cache-Control"] == "no-cache", "\(path)")
            }
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func everyValidatedReadAnswers304(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            for path in Self.liveReads + ["/api/openapi.json"] {
                let first = try client.request(.GET, path)
                let tag = try #require(first.headers["ETag"], "\(path)")
                let again = try client.request(.GET, path, headers: ["If-None-Match": tag])
                #expect(again.status == 304, "\(path)")
                #expect(again.headers["ETag"] == tag, "\(path)")
                #expect(again.headers["Cache-Control"] == "no-cache", "\(path)")
            }
            for path in ["/healthz", "/metrics"] {
                #expect(try client.request(.GET, path).headers["Cache-Control"] == "no-store", "\(path)")
            }
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func errorsAreNeverStored(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let refused: [(HTTPMethod, String, [UInt8])] = [
                (.GET, "/api/tables/nope", []), (.GET, "/tables/nope", []), (.GET, "/nowhere", []),
                (.GET, "/tables/t?style=fancy", []), (.GET, "/api/tables/t/changes?since=x", []),
                (.POST, "/api/tables/t/batch", body(#"{"deleteRows": [[5, 0]]}"#)),
                (.POST, "/api/tables/t/batch", body(#"{"insertRows": 3}"#)),
                (.DELETE, "/api/openapi.json", []),
            ]
            for (method, path, bytes) in refused {
                let response = try client.request(method, path, headers: jsonHeaders, body: bytes)
                #expect(response.status >= 400, "\(method) \(path)")
                #expect(response.headers["Cache-Control"] == "no-store", "\(method) \(path)")
            }
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func theChangeFeedAnswers304WhileNothingChanged(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let first = try client.request(.GET, "/api/tables/t/changes?since=0")
            #expect(first.headers["ETag"] == "\"0\"")
            let same = try client.request(.GET, "/api/tables/t/changes?since=0", headers: ["If-None-Match": "\"0\""])
            #expect(same.status == 304)
            #expect(same.body.isEmpty)
            #expect(same.headers["ETag"] == "\"0\"")
            #expect(same.headers["Cache-Control"] == "no-cache")
            try edit(client, 0)
            let moved = try client.request(.GET, "/api/tables/t/changes?since=0", headers: ["If-None-Match": "\"0\""])
            #expect(moved.status == 200)
            #expect(moved.headers["ETag"] == "\"1\"")
            #expect(try moved.json["changes"]?.array?.count == 1)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func aClosedRangeIsImmutableAndTheOpenEndIsNot(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            for index in 0..<5 {
                try edit(client, index)
            }
            let closed = try client.request(.GET, "/api/tables/t/changes?since=1&until=3")
            #expect(closed.status == 200)
            #expect(closed.headers["Cache-Control"] == "max-age=31536000, immutable")
            #expect(closed.headers["ETag"] == "\"3\"")
            #expect(try closed.json["version"]?.int == 3)
            #expect(try closed.json["changes"]?.array?.compactMap { $0["version"]?.int } == [2, 3])

            let revalidated = try client.request(
                .GET, "/api/tables/t/changes?since=1&until=3", headers: ["If-None-Match": "\"3\""])
            #expect(revalidated.status == 304)
            #expect(revalidated.headers["Cache-Control"] == "max-age=31536000, immutable")

            // Later edits leave a closed range as it was.
            try edit(client, 5)
            let again = try client.request(.GET, "/api/tables/t/changes?since=1&until=3")
            #expect(again.body == closed.body)

            let empty = try client.request(.GET, "/api/tables/t/changes?since=2&until=2")
            #expect(try empty.json["changes"]?.array?.isEmpty == true)
            #expect(empty.headers["Cache-Control"] == "max-age=31536000, immutable")

            // A range past the current version is the open end: what exists, revalidated.
            let open = try client.request(.GET, "/api/tables/t/changes?since=4&until=100")
            #expect(open.headers["Cache-Control"] == "no-cache")
            #expect(open.headers["ETag"] == "\"6\"")
            #expect(try open.json["version"]?.int == 6)
            #expect(try open.json["changes"]?.array?.compactMap { $0["version"]?.int } == [5, 6])

            let backwards = try client.request(.GET, "/api/tables/t/changes?since=3&until=2")
            #expect(backwards.status == 200)
            #expect(try backwards.json["version"]?.int == 3)
            #expect(try backwards.json["changes"]?.array?.isEmpty == true)
            #expect(try client.request(.GET, "/api/tables/t/changes?since=x&until=2").status == 400)
        }
    }

    @Test func aClosedRangeWhoseChangesAreNoLongerKeptIsGone() throws {
        try withServer(.inProcess, configure: { $0.history = 2 }) { client in
            for index in 0..<4 {
                try edit(client, index)
            }
            let gone = try client.request(.GET, "/api/tables/t/changes?since=0&until=2")
            #expect(gone.status == 410)
            #expect(gone.headers["Cache-Control"] == "no-store")
            #expect(try client.request(.GET, "/api/tables/t/changes?since=2&until=3").status == 200)
        }
    }

    @Test(arguments: [TestTransport.inProcess, .live])
    func pagesLinkTheStaticFilesUnderTheirVersionedNames(_ transport: TestTransport) throws {
        try withServer(transport) { client in
            let page = try client.request(.GET, "/tables/t").text
            let link = try #require(page.firstMatch(of: #/href="(/assets/[0-9a-f]{12})/tableview\.css"/#)?.output.1)
            #expect(page.contains("src=\"\(link)/tableview.js\""))
            for name in ["tableview.css", "tableview.js", "dom.js"] {
                let file = try client.request(.GET, "\(link)/\(name)")
                #expect(file.status == 200, "\(name)")
                #expect(file.headers["Cache-Control"] == "max-age=31536000, immutable", "\(name)")
                let plain = try client.request(.GET, "/public/\(name)")
                #expect(plain.headers["Cache-Control"] == "max-age=300", "\(name)")
                #expect(plain.body == file.body, "\(name)")
            }
            #expect(try client.request(.GET, "/").text.contains("href=\"\(link)/tableview.css\""))
        }
    }

    @Test(arguments: ["gzip", "br"])
    func pagesAndReadsAreCompressed(_ coding: String) throws {
        try withServer(.live) { client in
            for path in ["/", "/tables/t", "/api/tables/t", "/api/tables/t/sections", "/api/tables/t/changes?since=0"] {
                let plain = try client.request(.GET, path)
                let coded = try client.request(.GET, path, headers: ["Accept-Encoding": coding])
                #expect(coded.headers["Vary"] == "Accept-Encoding", "\(path)")
                #expect(try coded.decodedBody() == plain.body, "\(path)")
                if coded.headers["Content-Encoding"] != nil {
                    #expect(
                        coded.headers["ETag"] == plain.headers["ETag"].map { $0.dropLast() + "-\(coding)\"" }, "\(path)"
                    )
                    let again = try client.request(
                        .GET, path, headers: ["Accept-Encoding": coding, "If-None-Match": coded.headers["ETag"] ?? ""])
                    #expect(again.status == 304, "\(path)")
                }
            }
            let page = try client.request(.GET, "/tables/t", headers: ["Accept-Encoding": coding])
            #expect(page.headers["Content-Encoding"] == coding)
        }
    }

    @Test func eventStreamsAreNotCompressed() throws {
        try withServer(.live) { client in
            let connection = try client.connect()
            defer { connection.close() }
            try connection.send(
                "GET /api/tables/t/events?since=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip, br\r\n\r\n")
            let head = try connection.readHead()
            #expect(head.status == 200)
            #expect(head.headers["Content-Encoding"] == nil)
            #expect(head.headers["Cache-Control"] == "no-cache")
        }
    }
}
