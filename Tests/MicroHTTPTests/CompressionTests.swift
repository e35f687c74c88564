@testable import MicroHTTP
import MicroHTTPTesting
import Testing

/// `Accept-Encoding` negotiation, and answers compressed in gzip and br with
/// their own entity tags (docs/API.md, Compression).
@Suite struct CompressionTests {
    @Test func acceptEncodingChoosesByQualityThenBrThenGzip() {
        let cases: [(String?, ContentCoding)] = [
            (nil, .identity), ("", .identity), ("gzip", .gzip), ("br", .br), ("gzip, br", .br),
            ("gzip, deflate, br, zstd", .br), ("deflate", .identity), ("GZIP", .gzip),
            ("gzip;q=1.0, br;q=0.5", .gzip), ("br;q=0.8, gzip;q=0.9", .gzip), ("br;q=0, gzip", .gzip),
            ("br;q=0, gzip;q=0", .identity), ("*", .br), ("*;q=0.5, gzip", .gzip), ("br;q=0, *", .gzip),
            ("identity;q=1, gzip;q=0.5", .identity), ("gzip ; q=0.7 , br ; q=0.2", .gzip),
            ("br;q=1.5, gzip", .gzip), ("br;q=x, gzip", .gzip), ("br;q=.5, gzip;q=0.4", .gzip),
            ("gzip;level=9", .gzip), (",,, br,", .br), ("identity;q=0", .identity), ("x-gzip", .gzip),
            ("*;q=0", .identity), ("identity;q=0, *;q=0", .identity), ("br;q=0.5, gzip;q=0.5", .br),
            ("gzip;q=0.5, identity;q=0.5", .gzip), ("identity;q=0.5, br;q=0.4", .identity),
            ("br;Q=0.1, gzip;q=0.05", .br), ("gzip;q=1.0001", .identity), ("gzip;q=0.001", .gzip),
            ("Br, GZip", .br), ("\tgzip\t;\tq=0.3\t, br;q=0.2", .gzip), ("deflate, *;q=0.1, br;q=0.05", .gzip),
            ("gzip, deflate, br;q=0", .gzip), ("gzip, deflate, br, zstd;q=0, identity;q=0", .br),
        ]
        for (field, expected) in cases {
            #expect(ContentCoding.preferred(by: field) == expected, "\(field ?? "none")")
        }
    }

    /// The usual values are matched whole, without the parser: each gets the
    /// parser's verdict, and nothing but those exact bytes takes the shortcut.
    @Test func theUsualValuesGetTheParsersVerdict() {
        for (value, coding) in ContentCoding.usualValues {
            let text = value.description
            #expect(Self.withBytes(text, ContentCoding.negotiated) == coding, "\(text)")
            #expect(Self.withBytes(text, ContentCoding.usual) == coding, "\(text)")
            #expect(ContentCoding.preferred(by: text) == coding, "\(text)")
            // Near misses are parsed: other case, spacing, a q, a coding more.
            for variant in [
                text.uppercased(), " " + text, text + " ", text + ";q=0", text + ", identity;q=0", text + ", *;q=0",
                "br;q=0, " + text, "gzip;q=0, " + text, text.split(separator: " ").joined(),
                String(text.dropLast()), text + "x",
            ] where !ContentCoding.usualValues.contains(where: { $0.value.description == variant }) {
                #expect(Self.withBytes(variant, ContentCoding.usual) == nil, "\(variant)")
                #expect(
                    ContentCoding.preferred(by: variant) == Self.withBytes(variant, ContentCoding.negotiated),
                    "\(variant)")
            }
        }
        #expect(Self.withBytes("", ContentCoding.usual) == nil)
    }

    @Test func compressibleTypesAreTextJSONJavaScriptAndSVGButNotEventStreams() {
        let cases: [(String, Bool)] = [
            ("text/html; charset=utf-8", true), ("TEXT/Plain", true), ("text/css", true),
            ("application/json; charset=utf-8", true), ("Application/JSON", true), ("application/problem+json", true),
            ("application/javascript", true), ("image/svg+xml", true), ("+json", true),
            ("text/event-stream", false), ("Text/Event-Stream; charset=utf-8", false), ("image/png", false),
            ("application/octet-stream", false), ("", false), ("json", false), ("text", false),
            ("application/json ; charset=utf-8", false), ("application/jsonx", false),
        ]
        for (type, expected) in cases {
            #expect(ContentEncoding.isCompressible(type) == expected, "\(type)")
        }
    }

    private static func withBytes<Answer>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Answer) -> Answer {
        var text = text
        return text.withUTF8(body)
    }

    static let json = Array(
        ("{\"rows\":["
            + (0..<200).map { "{\"id\":\"r\($0)\",\"text\":\"Row \($0)\"}" }
            .joined(separator: ",") + "]}").utf8)
    static let pieces = (0..<50).map { index in
        Array(("<tr>" + String(repeating: "<td>cell \(index)</td>", count: 400) + "</tr>\n").utf8)
    }

    /// `/json` (version 5, 304 to `"5"`), `/kept` (reusable), `/page` (in
    /// pieces), `/tiny`, `/image`, and `/edit`, which echoes `If-Match`.
    static func router(calls: Shared<Int>) -> Router {
        var router = Router()
        router.add(.GET, "/json") { request in
            if request.headers["If-None-Match"]?.split(separator: ",").contains(where: { $0.contains("\"5\"") }) == true
            {
                return HTTPResponse(status: 304, headers: ["ETag": "\"5\"", "Cache-Control": "no-cache"])
            }
            return HTTPResponse(contentType: "application/json", bytes: json, headers: ["ETag": "\"5\""])
        }
        let revision = Revision(1)
        router.add(.GET, "/kept") { _ in
            calls.update { $0 += 1 }
            return HTTPResponse(contentType: "application/json", bytes: json, headers: ["ETag": "\"1\""])
                .reusable(while: revision, at: 1)
        }
        router.add(.GET, "/page") { _ in
            HTTPResponse(
                headers: ["Content-Type": "text/html; charset=utf-8", "ETag": "\"9\""],
                body: .chunks(ChunkProducer(pieces: pieces)))
        }
        router.add(.GET, "/tiny") { _ in
            HTTPResponse(contentType: "text/plain", bytes: Array("ok".utf8), headers: ["ETag": "\"2\""])
        }
        router.add(.GET, "/image") { _ in
            HTTPResponse(contentType: "image/png", bytes: Array(repeating: 7, count: 4000))
        }
        router.add(.POST, "/edit") { request in .text(request.headers["If-Match"] ?? "none") }
        return router
    }

    @Test(arguments: [ContentCoding.gzip, .br])
    func bodiesAreCompressedWithTheirOwnTag(_ coding: ContentCoding) throws {
        try withLiveServer(Self.router(calls: Shared(0))) { _, client in
            let accept: HTTPHeaders = ["Accept-Encoding": coding.token]
            let response = try client.execute(path: "/json", headers: accept)
            #expect(response.headers["Content-Encoding"] == coding.token)
            #expect(response.headers["ETag"] == "\"5-\(coding.token)\"")
            #expect(response.headers["Vary"] == "Accept-Encoding")
            #expect(response.body.count * 5 < Self.json.count)
            #expect(try response.decodedBody() == Self.json)

            let head = try client.execute(method: .HEAD, path: "/json", headers: accept)
            #expect(head.headers["Content-Length"] == String(response.body.count))

            let plain = try client.execute(path: "/json")
            #expect(plain.headers["Content-Encoding"] == nil)
            #expect(plain.headers["ETag"] == "\"5\"")
            #expect(plain.headers["Vary"] == "Accept-Encoding")
            #expect(plain.body == Self.json)
        }
    }

    @Test(arguments: [ContentCoding.gzip, .br])
    func piecesAreCompressedAsTheyAreSent(_ coding: ContentCoding) throws {
        try withLiveServer(Self.router(calls: Shared(0))) { _, client in
            let response = try client.execute(path: "/page", headers: ["Accept-Encoding": coding.token])
            #expect(response.headers["Transfer-Encoding"] == "chunked")
            #expect(response.headers["Content-Encoding"] == coding.token)
            #expect(response.headers["ETag"] == "\"9-\(coding.token)\"")
            let whole = Array(Self.pieces.joined())
            #expect(response.body.count * 8 < whole.count)
            #expect(try response.decodedBody() == whole)
        }
    }

    @Test func whatCompressionWouldNotShrinkIsSentAsItIs() throws {
        try withLiveServer(Self.router(calls: Shared(0))) { _, client in
            let tiny = try client.execute(path: "/tiny", headers: ["Accept-Encoding": "gzip"])
            #expect(tiny.headers["Content-Encoding"] == nil)
            #expect(tiny.headers["ETag"] == "\"2\"")
            #expect(tiny.headers["Vary"] == "Accept-Encoding")
            #expect(tiny.text == "ok")
            let image = try client.execute(path: "/image", headers: ["Accept-Encoding": "gzip, br"])
            #expect(image.headers["Content-Encoding"] == nil)
            #expect(image.headers["Vary"] == nil)
            #expect(image.body.count == 4000)
        }
    }

    @Test func conditionsNameTheCodedTags() throws {
        try withLiveServer(Self.router(calls: Shared(0))) { _, client in
            let gzip = try client.execute(
                path: "/json", headers: ["Accept-Encoding": "gzip", "If-None-Match": "\"5-gzip\""])
            #expect(gzip.status == 304)
            #expect(gzip.headers["ETag"] == "\"5-gzip\"")
            #expect(gzip.headers["Vary"] == "Accept-Encoding")
            // A tag of another coding does not match: the client holds other bytes.
            let other = try client.execute(
                path: "/json", headers: ["Accept-Encoding": "gzip", "If-None-Match": "\"5-br\""])
            #expect(other.status == 200)
            #expect(other.headers["ETag"] == "\"5-gzip\"")
            // The uncoded tag still names the uncompressed bytes the client holds.
            let plain = try client.execute(path: "/json", headers: ["Accept-Encoding": "br", "If-None-Match": "\"5\""])
            #expect(plain.status == 304)
            #expect(plain.headers["ETag"] == "\"5\"")
            let stale = try client.execute(
                path: "/json", headers: ["Accept-Encoding": "br", "If-None-Match": "\"4-br\""])
            #expect(stale.status == 200)

            let edit = try client.execute(
                method: .POST, path: "/edit", headers: ["If-Match": "\"5-gzip\", W/\"6-br\", \"7\""])
            #expect(edit.text == "\"5\", W/\"6\", \"7\"")
        }
    }

    @Test func keptAnswersAreKeptPerCoding() throws {
        let calls = Shared(0)
        var configuration = HTTPServer.Configuration()
        configuration.threads = 1
        try withLiveServer(Self.router(calls: calls), configuration: configuration) { _, client in
            for _ in 0..<3 {
                for coding in [ContentCoding.identity, .gzip, .br] {
                    let response = try client.execute(path: "/kept", headers: ["Accept-Encoding": coding.token])
                    #expect(response.headers["Content-Encoding"] == (coding == .identity ? nil : coding.token))
                    #expect(response.headers["ETag"] == (coding == .identity ? "\"1\"" : "\"1-\(coding.token)\""))
                    #expect(try response.decodedBody() == Self.json)
                }
            }
            #expect(calls.value == 3)
        }
    }
}
