import MicroHTTP
import MicroHTTPTesting
import Testing

/// Request framing that could let one message carry another (request
/// smuggling, RFC 9112 §6 and §11.2), sent as raw bytes over a live socket.
/// Each case checks the answer, that the connection is closed where the
/// framing cannot be trusted, and that the request hidden behind the bad
/// message never ran (docs/RELIABILITY.md, "Framing").
@Suite(.timeLimit(.minutes(1))) struct SmugglingTests {
    /// The hidden second request every case carries behind its first.
    static let hidden = "DELETE /victim HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// A router with a harmless `/echo` and a `/victim` that counts its calls.
    static func router(victimCalls: Shared<Int>) -> Router {
        var router = Router()
        router.add(.POST, "/echo") { request in .text(String(decoding: request.body, as: UTF8.self)) }
        router.add(.GET, "/ping") { _ in .text("pong") }
        router.add(.DELETE, "/victim") { _ in
            victimCalls.update { $0 += 1 }
            return HTTPResponse(status: 204)
        }
        return router
    }

    /// Sends `head` (without its blank line) and `body` with the hidden
    /// request behind them; expects `status`, a closed connection and no call
    /// of the hidden request.
    static func expectRefusal(head: String, body: String = "{}", status: Int = 400, type: String? = nil) throws {
        let victimCalls = Shared(0)
        try withLiveServer(router(victimCalls: victimCalls)) { server, client in
            let connection = try client.connect()
            try connection.send(head + "\r\n\r\n" + body + hidden)
            let response = try connection.readResponse()
            #expect(response.status == status, "\(head)")
            if let type {
                #expect(response.text.contains(type), "\(response.text)")
            }
            #expect(response.headers["Connection"]?.lowercased() == "close", "\(head)")
            #expect(connection.waitForClose(), "\(head)")
            #expect(victimCalls.value == 0, "the hidden request ran behind \(head)")
            #expect(server.metrics.count(method: .POST, route: "/echo", status: 200) == 0)
        }
    }

    /// The audit's case: `Content-Length: 2` then the length that covers the hidden request.
    @Test func twoDifferentContentLengthsAreRefused() throws {
        let second = 2 + Self.hidden.utf8.count
        try Self.expectRefusal(
            head: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: \(second)",
            type: "bad-framing")
        try Self.expectRefusal(
            head: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(second)\r\nContent-Length: 2",
            type: "bad-framing")
    }

    @Test(arguments: ["2, 2", "2,40", " ", "0x2", "2.0", "½"])
    func aContentLengthThatIsNotOnePlainDecimalIsRefused(_ value: String) throws {
        try Self.expectRefusal(head: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(value)")
    }

    /// Identical repeated values are accepted (RFC 9112 §6.3, item 5): the
    /// length is the same whichever field a proxy reads.
    @Test func identicalContentLengthsAreReadAsOne() throws {
        let victimCalls = Shared(0)
        try withLiveServer(Self.router(victimCalls: victimCalls)) { _, client in
            let connection = try client.connect()
            try connection.send(
                "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab"
                    + "GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(try connection.readResponse().text == "ab")
            #expect(try connection.readResponse().text == "pong")
        }
    }

    @Test func twoHostFieldsAreRefused() throws {
        try Self.expectRefusal(
            head: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nContent-Length: 2", type: "bad-host")
    }

    @Test(arguments: ["a b", "a/b", "a@b", "[::1", "127.0.0.1:80:80", "127.0.0.1:x", "a\u{7f}"])
    func aHostThatIsNotAHostIsRefused(_ value: String) throws {
        try Self.expectRefusal(head: "POST /echo HTTP/1.1\r\nHost: \(value)\r\nContent-Length: 2", type: "bad-host")
    }

    /// RFC 9112 §6.1: a final coding other than chunked leaves the length unknown.
    @Test(arguments: ["chunked, identity", "gzip", "identity", "chunked, chunked"])
    func aTransferEncodingNotEndingInOneChunkedIsRefused(_ value: String) throws {
        try Self.expectRefusal(
            head: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: \(value)", body: "2\r\n{}\r\n0\r\n\r\n",
            type: "bad-framing")
    }

    /// Two fields are one list: `chunked` then `identity` ends in identity.
    @Test func transferEncodingSplitOverTwoFieldsIsReadAsOneList() throws {
        try Self.expectRefusal(
            head: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity",
            body: "2\r\n{}\r\n0\r\n\r\n", type: "bad-framing")
    }

    /// A coding before the final chunked that the server does not undo: 501, and close.
    @Test func aTransferCodingBeforeChunkedIsNotImplemented() throws {
        try Self.expectRefusal(
            head: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip, chunked",
            body: "2\r\n{}\r\n0\r\n\r\n", status: 501, type: "unsupported-transfer-coding")
    }

    @Test func transferEncodingWithContentLengthStaysRefused() throws {
        try Self.expectRefusal(
            head: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 9\r\nTransfer-Encoding: chunked",
            body: "2\r\n{}\r\n0\r\n\r\n", type: "bad-framing")
    }

    /// RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding is answered,
    /// then its connection closed, whatever it asked for.
    @Test func transferEncodingInHTTP10ClosesAfterTheAnswer() throws {
        let victimCalls = Shared(0)
        try withLiveServer(Self.router(victimCalls: victimCalls)) { _, client in
            let connection = try client.connect()
            try connection.send(
                "POST /echo HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "2\r\n{}\r\n0\r\n\r\n" + Self.hidden)
            let response = try connection.readResponse()
            #expect(response.headers["Connection"]?.lowercased() == "close")
            #expect(connection.waitForClose())
            #expect(victimCalls.value == 0)
        }
    }

    @Test(arguments: [
        ("FFFFFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n", 413),
        ("2 ;\u{1}\r\n{}\r\n0\r\n\r\n", 400),
        ("2\r\n{}0\r\n\r\n", 400),
        ("2\r\n{}\r\nz\r\n\r\n", 400),
    ])
    func aMalformedChunkIsRefused(_ body: String, _ status: Int) throws {
        let victimCalls = Shared(0)
        try withLiveServer(Self.router(victimCalls: victimCalls)) { server, client in
            let connection = try client.connect()
            try connection.send(
                "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n" + body + Self.hidden)
            let response = try connection.readResponse()
            #expect(response.status == status, "\(body.debugDescription)")
            #expect(connection.waitForClose())
            #expect(victimCalls.value == 0)
            #expect(server.metrics.count(method: .POST, route: "/echo", status: 200) == 0)
        }
    }
}
