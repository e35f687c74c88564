import MicroHTTPTesting
import Testing
@testable import MicroHTTP

/// Field lines libmicrohttpd 0.9.75 reads its own way, each a way to smuggle
/// a request or to hang a connection (RFC 9112 §5, §5.2, §6.1; RFC 9110 §5.5):
/// every one is 400 and closes its connection, and the request hidden behind
/// it never runs; an absolute-form target is served (RFC 9112 §3.2.2)
/// (docs/RELIABILITY.md, "Framing").
@Suite(.timeLimit(.minutes(1))) struct FieldLineTests {
    static let start = "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\n"

    /// Whitespace before the colon: libmicrohttpd took `Content-Length ` for
    /// another field, and the body ran as a second request.
    @Test(arguments: ["Content-Length : 2", "Content-Length\t: 2", "Transfer-Encoding : chunked", " X: y"])
    func whitespaceBeforeAColonIsRefused(_ line: String) throws {
        try SmugglingTests.expectRefusal(head: Self.start + line, type: "bad-field")
    }

    /// obs-fold: libmicrohttpd appended the continuation to the field's name.
    @Test(arguments: [
        "Content-Length: 2\r\n 0", "Content-Length:\r\n 2", "Transfer-Encoding:\r\n chunked",
        "Transfer-Encoding: chunked\r\n\t", "X-Note: a\r\n b",
    ])
    func anObsFoldIsRefused(_ lines: String) throws {
        try SmugglingTests.expectRefusal(head: Self.start + lines, type: "bad-field")
    }

    @Test func anObsFoldedHostIsRefused() throws {
        try SmugglingTests.expectRefusal(
            head: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\n evil.example\r\nContent-Length: 2", type: "bad-field")
    }

    /// libmicrohttpd reads a body as chunked only for `chunked` exactly; with
    /// whitespace or an empty member it waited for the connection to close.
    @Test(arguments: ["chunked ", "chunked\t", "chunked, ", "chunked,", ", chunked", "gzip, , chunked"])
    func aTransferEncodingWithWhitespaceOrAnEmptyMemberIsRefused(_ value: String) throws {
        try SmugglingTests.expectRefusal(
            head: Self.start + "Transfer-Encoding: \(value)", body: "2\r\n{}\r\n0\r\n\r\n", type: "bad-framing")
    }

    @Test(arguments: [
        "X-Note: a\rb", "X-Note: a\0b", "X-Note: a\0\0b", "X-Note: a\0\0b\r\nX-Other: c", "X-Note: a\0\0\r\nX-Other: c",
        "X-Note: a\nContent-Length: 2", "X\rNote: a",
    ])
    func aControlByteOrABareLineFeedInAFieldLineIsRefused(_ line: String) throws {
        try SmugglingTests.expectRefusal(head: Self.start + "Content-Length: 2\r\n" + line, type: "bad-field")
    }

    /// The token bytes, bit by bit, are RFC 9110 §5.6.2's list.
    @Test func tokenBytesAreTheRFCsTchar() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(FieldLine.isTokenByte(byte) == tchar.contains(byte), "\(byte)")
        }
    }

    @Test func twoIdempotencyKeysAreRefused() throws {
        try SmugglingTests.expectRefusal(
            head: Self.start + "Idempotency-Key: a\r\nidempotency-key: b\r\nContent-Length: 2", type: "bad-field")
    }

    @Test(arguments: ["http://127.0.0.1/echo", "HTTP://127.0.0.1:8080/echo", "https://localhost/echo"])
    func anAbsoluteFormTargetIsServedByItsPath(_ target: String) throws {
        try withLiveServer(SmugglingTests.router(victimCalls: Shared(0))) { _, client in
            let connection = try client.connect()
            try connection.send(
                "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\nab"
                    + "GET http://127.0.0.1/ping?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let echo = try connection.readResponse()
            #expect(echo.status == 200 && echo.text == "ab", "\(target)")
            #expect(try connection.readResponse().text == "pong")
        }
    }

    @Test(arguments: ["http:///echo", "http://[::1/echo", "http://user@127.0.0.1/echo"])
    func anAbsoluteFormTargetWithoutAHostIsRefused(_ target: String) throws {
        try SmugglingTests.expectRefusal(
            head: "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2", type: "bad-host")
    }
}
