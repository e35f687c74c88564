import FuzzSupport
import Glibc
@testable import MicroHTTP

/// Reads a version (first byte: HTTP/1.0 or 1.1) and a header block (the
/// rest: `name: value` lines), hands the fields to `RequestFraming` as
/// libmicrohttpd would, and checks its verdict against ``ReferenceFraming``,
/// which reads the same fields as plain strings (docs/RELIABILITY.md, "Framing").
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFraming(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let first = bytes.first else { return 0 }
    let version = first & 1 == 0 ? "HTTP/1.0" : "HTTP/1.1"
    let fields = ReferenceFraming.fields(String(decoding: bytes.dropFirst(), as: UTF8.self))
    let copies = fields.map { (strdup($0.name)!, strdup($0.value)!) }
    defer {
        copies.forEach {
            free($0.0); free($0.1)
        }
    }
    var noted = RequestFields()
    for (name, value) in copies {
        noted.note(name: name, value: value)
    }
    let verdict = version.withCString { RequestFraming.verdict(on: noted, version: $0) }
    let expected = ReferenceFraming.verdict(fields, version: version)
    switch (verdict, expected) {
    case (.accept, .accept), (.acceptThenClose, .acceptThenClose):
        break
    case (.refuse(let response), .refuse(let status)):
        require(response.status == status, "\(fields) \(version): \(response.status), not \(status)")
    default:
        require(false, "\(fields) \(version): \(verdict), not \(expected)")
    }
    return 0
}
