import Testing

@testable import WebTableViewClient

@Suite struct ServerSentEventParserTests {
    @Test func cutsEventsAtBlankLinesWhateverThePieces() {
        let text =
            ": connected\nretry: 3000\n\nevent: update\nid: 12\ndata: {\"version\":12}\n\nevent: reset\r\ndata: a\r\ndata: b\r\n\r\n"
        let bytes = Array(text.utf8)
        let whole = { () -> [ServerSentEvent] in
            var parser = ServerSentEventParser()
            return parser.feed(bytes)
        }()
        #expect(
            whole == [
                ServerSentEvent(name: "update", id: "12", data: "{\"version\":12}"),
                ServerSentEvent(name: "reset", id: nil, data: "a\nb"),
            ])
        for cut in 0...bytes.count {
            var parser = ServerSentEventParser()
            let events = parser.feed(bytes[..<cut]) + parser.feed(bytes[cut...])
            #expect(events == whole, "cut at \(cut)")
        }
    }

    @Test func anEventCutBeforeItsBlankLineIsNeverHandedOn() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("event: update\nid: 3\ndata: {\"version\":3}\n".utf8)).isEmpty)
        #expect(parser.retry == nil)
        var next = ServerSentEventParser()
        #expect(next.feed(Array("retry: 250\n\n".utf8)).isEmpty)
        #expect(next.retry == 250)
    }
}
