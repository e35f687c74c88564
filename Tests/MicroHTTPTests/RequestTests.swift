import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite struct RequestTests {
    static func router() -> Router {
        var router = Router()
        router.add(.GET, "/echo") { request in
            let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return .text(query.joined(separator: "&"))
        }
        router.add(.GET, "/header") { request in
            .text(request.headers["x-custom"] ?? "none")
        }
        return router
    }

    @Test(arguments: TestTransport.allCases)
    func queryArgumentsAreDecodedAndFirstValueWins(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let response = try client.execute(path: "/echo?offset=10&limit=5&q=caf%C3%A9+au+lait&offset=99&flag")
            #expect(response.text == "flag=&limit=5&offset=10&q=café au lait")
        }
    }

    @Test(arguments: TestTransport.allCases)
    func noQueryIsEmpty(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let response = try client.execute(path: "/echo")
            #expect(response.status == 200)
            #expect(response.text.isEmpty)
        }
    }

    @Test(arguments: TestTransport.allCases)
    func headersAreCaseInsensitive(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let response = try client.execute(path: "/header", headers: ["X-Custom": "value 1"])
            #expect(response.text == "value 1")
        }
    }

    /// A method no route can have is refused like any method the path does not
    /// allow: 405 with `Allow` (docs/API.md, "Status codes"), never a 5xx.
    @Test(arguments: ["BREW", "TRACE", "CONNECT"])
    func unroutedMethodIs405WithAllow(_ method: String) throws {
        try withLiveServer(Self.router()) { _, client in
            let connection = try client.connect()
            try connection.send("\(method) /echo HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 405)
            #expect(response.headers["Allow"] == "GET, HEAD, OPTIONS")
            #expect(response.text.contains("method-not-allowed"))
        }
    }

    @Test func unroutedMethodOnUnknownPathIs404() throws {
        try withLiveServer(Self.router()) { _, client in
            let connection = try client.connect()
            try connection.send("TRACE /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 404)
        }
    }

    @Test func keepAliveConnectionServesSeveralRequests() throws {
        try withLiveServer(Self.router()) { _, client in
            let connection = try client.connect()
            for index in 0..<3 {
                try connection.sendRequest(path: "/echo?n=\(index)", headers: ["Connection": "keep-alive"])
                let response = try connection.readResponse()
                #expect(response.text == "n=\(index)")
                #expect(response.headers["Connection"] == nil)
            }
        }
    }
}

@Suite struct MessageTests {
    @Test func headersKeepOrderAndCompareNamesWithoutCase() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "Set-Cookie": "a=1"]
        headers.add("set-cookie", "b=2")
        #expect(headers["SET-COOKIE"] == "a=1")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        headers.set("SET-COOKIE", "c=3")
        #expect(headers.values(for: "set-cookie") == ["c=3"])
        #expect(headers.map(\.name) == ["Content-Type", "SET-COOKIE"])
        #expect(headers["Content-Typ"] == nil)
        #expect(headers["Content-Typez"] == nil)
    }

    @Test func settingAFieldReplacesEveryOneOfItsNameInTheFirstOnesPlace() {
        var headers: HTTPHeaders = ["ETag": "\"1\"", "Vary": "Accept", "etag": "\"2\"", "Age": "0", "ETAG": "\"3\""]
        headers.set("ETag", "\"4\"")
        #expect(headers.map(\.name) == ["ETag", "Vary", "Age"])
        #expect(headers.values(for: "etag") == ["\"4\""])
        headers.set("Age", "1")
        #expect(headers.map(\.value) == ["\"4\"", "Accept", "1"])
        headers.set("Location", "/")
        #expect(headers.map(\.name) == ["ETag", "Vary", "Age", "Location"])
    }

    @Test func problemDocumentsAreRFC9457JSON() {
        let response = HTTPResponse.problem(
            status: 409,
            type: "row-in-replaced-section",
            detail: "attempt to \"move\"\nrow\u{1}",
            headers: ["ETag": "\"3\""]
        )
        #expect(response.status == 409)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(response.headers["ETag"] == "\"3\"")
        guard case .bytes(let bytes) = response.body else {
            Issue.record("expected bytes")
            return
        }
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"type":"row-in-replaced-section","title":"Conflict","status":409,"detail":"attempt to \"move\"\nrow\u0001"}"#
                + "\n")
    }

    @Test func serverSentEventsSplitDataLines() {
        let event = ServerSentEvent(event: "update", id: "7", data: "{\"a\":1}\nsecond")
        #expect(
            String(decoding: event.bytes, as: UTF8.self) == "event: update\nid: 7\ndata: {\"a\":1}\ndata: second\n\n")
        #expect(String(decoding: ServerSentEvent.comment("keep-alive"), as: UTF8.self) == ": keep-alive\n\n")
    }
}
