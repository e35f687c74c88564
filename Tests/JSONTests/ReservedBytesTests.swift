import JSON
import Testing

/// Writing into room reserved once (`ReservedBytes`, `JSONSpan`): what it writes,
/// and that it never writes past the room.
@Suite struct ReservedBytesTests {
    @Test(arguments: [0, 7, -7, 10, 99, -100, 1_234_567_890, Int.max, Int.min])
    func decimalsAreWhatStringWrites(value: Int) {
        var bytes = Array("x".utf8)
        bytes.append(atMost: ReservedBytes.maximumDecimalCount) { $0.appendDecimal(value) }
        #expect(String(decoding: bytes, as: UTF8.self) == "x\(value)")
    }

    /// Every ASCII byte, the line and paragraph separators, and multi-byte text:
    /// quoted within the bound, and parsed back to the same string.
    @Test func quotedStringsStayWithinTheirBoundAndParseBack() throws {
        let texts = [
            String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self), "\u{2028}\u{2029}\u{2027}\u{202A}",
            String(repeating: "\u{1}", count: 100), "Zoë 🇫🇷", "",
        ]
        for text in texts {
            var bytes: [UInt8] = []
            bytes.append(atMost: ReservedBytes.maximumJSONQuotedCount(text)) { $0.appendJSONQuoted(text) }
            #expect(bytes.count <= ReservedBytes.maximumJSONQuotedCount(text))
            #expect(try JSONParser().parse(bytes) == .string(text))
            #expect(!bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "<") }))
        }
    }

    /// A document written through one span is what the same calls on the writer write.
    @Test func aSpanWritesWhatTheWriterWrites() {
        let key = JSONKey("k<")
        let name = JSONQuotedString("subtitle")
        var one = JSONWriter()
        one.beginArray()
        one.write(atMost: 512) { span in
            span.beginObject()
            span.key(key); span.string("a\"b")
            span.key("n"); span.integer(-12)
            span.key("d"); span.double(0.1)
            span.key("e"); span.double(nil)
            span.key("s"); span.string(name)
            span.key("t"); span.bool(true)
            span.key("l")
            span.beginArray(); span.null(); span.string(nil); span.endArray()
            span.endObject()
        }
        one.write(atMost: 8) { $0.bool(false) }
        one.endArray()
        var calls = JSONWriter()
        calls.beginArray()
        calls.beginObject()
        calls.key("k<"); calls.string("a\"b")
        calls.key("n"); calls.integer(-12)
        calls.key("d"); calls.double(0.1)
        calls.key("e"); calls.double(nil)
        calls.key("s"); calls.string("subtitle")
        calls.key("t"); calls.bool(true)
        calls.key("l")
        calls.beginArray(); calls.null(); calls.string(nil); calls.endArray()
        calls.endObject()
        calls.bool(false)
        calls.endArray()
        #expect(one.bytes == calls.bytes)
        #expect(
            String(decoding: one.bytes, as: UTF8.self)
                == #"[{"k\u003c":"a\"b","n":-12,"d":0.1,"e":null,"s":"subtitle","t":true,"l":[null,null]},false]"#)
    }

    /// Writing more than the room reserved stops the process instead of writing
    /// past the buffer.
    @Test func writingPastTheRoomStops() async {
        await #expect(processExitsWith: .failure) {
            var bytes: [UInt8] = []
            bytes.append(atMost: 4) { $0.appendJSONQuoted("four") }
        }
    }
}
