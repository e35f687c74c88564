import FuzzSupport
import Glibc
@testable import MicroHTTP

/// Reads a version (first byte: HTTP/1.0 or 1.1) and a header block (the
/// rest: field lines, the last one ended by the end of the input), lays the
/// fields out as libmicrohttpd 0.9.75 does (``LibMicroHTTPDLayout``), hands
/// them to `RequestFields` and `RequestFraming`, and checks the verdict
/// against ``ReferenceFraming``, which reads the same bytes as plain text
/// (docs/RELIABILITY.md, "Framing").
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFraming(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let first = bytes.first else { return 0 }
    let version = first & 1 == 0 ? "HTTP/1.0" : "HTTP/1.1"
    let block = Array(bytes.dropFirst())
    // libmicrohttpd closes the connection, unanswered, on a line without a colon.
    guard let lines = ReferenceFraming.lines(block) else { return 0 }
    let layout = LibMicroHTTPDLayout(lines)
    defer { layout.buffer.deallocate() }
    var noted = RequestFields()
    for field in layout.fields {
        noted.note(name: field.name, nameSize: strlen(field.name), value: field.value, valueSize: strlen(field.value))
    }
    noted.endFields()
    let verdict = version.withCString { RequestFraming.verdict(on: noted, version: $0) }
    let expected = ReferenceFraming.verdict(lines, version: version)
    switch (verdict, expected) {
    case (.accept, .accept), (.acceptThenClose, .acceptThenClose):
        break
    case (.refuse(let response), .refuse(let status)):
        require(response.status == status, "\(lines) \(version): \(response.status), not \(status)")
    default:
        require(false, "\(lines) \(version): \(verdict), not \(expected)")
    }
    return 0
}

/// Field lines where libmicrohttpd 0.9.75 leaves them, as measured
/// (docs/RELIABILITY.md, "Framing"): in one buffer, each line's name, a NUL
/// over its colon, the spaces and tabs after it, its value, and a NUL over
/// each byte of its line end (CR LF, or LF alone), the empty line's two
/// NULs and a byte of the body after them; an obs-fold line appended,
/// without its leading whitespace, to the previous name copied to the end of
/// the buffer.
struct LibMicroHTTPDLayout {
    let buffer: UnsafeMutablePointer<CChar>
    var fields: [(name: UnsafePointer<CChar>, value: UnsafePointer<CChar>)] = []

    init(_ lines: [ReferenceFraming.Line]) {
        // The lines, the empty line, a byte of what follows it, then every copy of a folded name.
        var copies = lines.reduce(0) { $0 + $1.bytes.count + 2 } + 3
        var total = copies
        var nameSize = 0
        for line in lines {
            nameSize =
                line.isFold
                ? nameSize + line.bytes.drop(while: Self.isWhitespace).count
                : line.bytes.firstIndex(of: UInt8(ascii: ":")) ?? 0
            total += line.isFold ? nameSize + 1 : 0
        }
        buffer = .allocate(capacity: total + 1)
        buffer.initialize(repeating: 0, count: total + 1)
        var offset = 0
        for line in lines {
            let start = offset
            for byte in line.bytes {
                buffer[offset] = CChar(bitPattern: byte)
                offset += 1
            }
            offset += line.endsInCRLF ? 2 : 1
            if line.isFold, let last = fields.popLast() {
                let name = copies
                let old = strlen(last.name)
                for index in 0..<old {
                    buffer[copies] = last.name[index]
                    copies += 1
                }
                for byte in line.bytes.drop(while: Self.isWhitespace) {
                    buffer[copies] = CChar(bitPattern: byte)
                    copies += 1
                }
                copies += 1
                fields.append((UnsafePointer(buffer + name), last.value))
                continue
            }
            let colon = start + line.bytes.firstIndex(of: UInt8(ascii: ":"))!
            buffer[colon] = 0
            var value = colon + 1
            while Self.isWhitespace(UInt8(bitPattern: buffer[value])) {
                value += 1
            }
            fields.append((UnsafePointer(buffer + start), UnsafePointer(buffer + value)))
        }
        // The body, or the next request, starts after the empty line.
        buffer[offset + 2] = CChar(UInt8(ascii: "B"))
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}
