import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite struct ChunkedResponseTests {
    static func router(pieces: [[UInt8]]) -> Router {
        var router = Router()
        router.add(.GET, "/page") { _ in
            let remaining = Shared(pieces)
            let producer = ChunkProducer {
                remaining.update { $0.isEmpty ? nil : $0.removeFirst() }
            }
            return HTTPResponse(headers: ["Content-Type": "text/html; charset=utf-8"], body: .chunks(producer))
        }
        return router
    }

    @Test(arguments: TestTransport.allCases)
    func piecesArriveConcatenated(_ transport: TestTransport) throws {
        let pieces = [Array("<html>".utf8), [], Array("<body>".utf8), Array("</body></html>".utf8)]
        try withTestServer(Self.router(pieces: pieces), transport: transport) { client in
            let response = try client.execute(path: "/page")
            #expect(response.status == 200)
            #expect(response.headers["Transfer-Encoding"] == "chunked")
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(response.text == "<html><body></body></html>")
        }
    }

    @Test func piecesLargerThanTheWriteBufferArriveWhole() throws {
        let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        try withTestServer(Self.router(pieces: [Array("start".utf8), large, Array("end".utf8)]), transport: .live) {
            client in
            let response = try client.execute(path: "/page")
            #expect(response.body == Array("start".utf8) + large + Array("end".utf8))
        }
    }

    @Test func firstPieceArrivesBeforeTheLastIsMade() throws {
        let gate = Shared(false)
        var router = Router()
        router.add(.GET, "/slow") { _ in
            let step = Shared(0)
            return HTTPResponse(
                body: .chunks(
                    ChunkProducer {
                        let current = step.update { value -> Int in
                            value += 1
                            return value
                        }
                        switch current {
                        case 1: return Array("head".utf8)
                        case 2: return eventually { gate.value } ? Array("tail".utf8) : nil
                        default: return nil
                        }
                    }))
        }
        try withTestServer(router, transport: .live) { client in
            let connection = try client.connect()
            try connection.sendRequest(path: "/slow")
            #expect(try connection.readHead().status == 200)
            let early = connection.readStream { $0.count >= 4 }
            #expect(String(decoding: early, as: UTF8.self) == "head")
            gate.update { $0 = true }
            let rest = connection.readStream { _ in false }
            #expect(String(decoding: rest, as: UTF8.self) == "tail")
            #expect(connection.sawLastChunk)
        }
    }

    @Test(arguments: TestTransport.allCases)
    func headOnAChunkedRouteHasNoBody(_ transport: TestTransport) throws {
        try withTestServer(Self.router(pieces: [Array("x".utf8)]), transport: transport) { client in
            let response = try client.execute(method: .HEAD, path: "/page")
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
        }
    }
}
