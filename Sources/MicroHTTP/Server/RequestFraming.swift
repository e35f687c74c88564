import Glibc

/// What a request's header fields say of where its message ends, judged
/// before any handler runs (RFC 9112 §6, §3.2; docs/RELIABILITY.md, "Framing").
///
/// libmicrohttpd 0.9.75 reads the body by the first `Content-Length` and the
/// first `Transfer-Encoding` field it finds. A proxy in front may read another
/// field, and then the bytes one reader takes for a body the other takes for
/// a second request (request smuggling). So every message whose framing two
/// readers could read differently is refused here, and its connection closed:
/// what follows its headers cannot be trusted to be its body.
enum RequestFraming {
    /// What the server does with a request, as its framing allows.
    enum Verdict {
        /// Read and answer it as usual.
        case accept
        /// Read and answer it, then close the connection: an HTTP/1.0
        /// message with `Transfer-Encoding` (RFC 9112 §6.1).
        case acceptThenClose
        /// Answer this, and close the connection.
        case refuse(HTTPResponse)
    }

    /// The verdict on a request with `fields`, sent as HTTP `version`.
    static func verdict(on fields: RequestFields, version: UnsafePointer<CChar>?) -> Verdict {
        if let refusal = fieldRefusal(fields) ?? hostRefusal(fields) ?? lengthRefusal(fields) ?? codingRefusal(fields) {
            return .refuse(refusal)
        }
        if fields.transferEncoding != nil, let version, strcmp(version, "HTTP/1.0") == 0 {
            return .acceptThenClose
        }
        return .accept
    }

    /// Field lines each well formed (``FieldLine``: RFC 9112 §5, §5.2; RFC
    /// 9110 §5.5), and one `Idempotency-Key` at most: 400 `bad-field`.
    private static func fieldRefusal(_ fields: RequestFields) -> HTTPResponse? {
        if let defect = fields.fieldDefect {
            return .problem(status: 400, type: "bad-field", detail: defect.detail)
        }
        if fields.hasSecondIdempotencyKey {
            return .problem(
                status: 400, type: "bad-field",
                detail: "A request may carry one Idempotency-Key field; this one carries several.")
        }
        return nil
    }

    /// One `Host` field, naming a host (RFC 9112 §3.2: 400 otherwise).
    private static func hostRefusal(_ fields: RequestFields) -> HTTPResponse? {
        if fields.hasSecondHost {
            return badHost("A request may carry one Host field; this one carries several.")
        }
        if let host = fields.host, !isHost(host) {
            return badHost("The Host field is not a host name, an IP address or one of them with a port.")
        }
        return nil
    }

    /// The authority of an absolute-form target (``AbsoluteForm``), a host
    /// (RFC 9112 §3.2.2: it stands for `Host`), else 400 `bad-host`.
    static func authorityRefusal(_ authority: [CChar]) -> HTTPResponse? {
        authority.count > 1 && authority.withUnsafeBufferPointer { isHost($0.baseAddress!) }
            ? nil : badHost("The authority of the absolute-form target is not a host, or a host and a port.")
    }

    /// `Content-Length` fields, if any, all one plain decimal (RFC 9112 §6.3,
    /// item 5). Repeats of the same value are accepted: every reader takes the
    /// same length from them.
    private static func lengthRefusal(_ fields: RequestFields) -> HTTPResponse? {
        guard let length = fields.contentLength else {
            return nil
        }
        if fields.hasConflictingContentLength {
            return badFraming("A request may not carry Content-Length fields with different values.")
        }
        if length[0] == 0 || !allBytes(of: length, where: isDigit) {
            return badFraming("Content-Length must be one non-negative decimal number.")
        }
        if fields.transferEncoding != nil {
            return badFraming("A request may not carry both Content-Length and Transfer-Encoding.")
        }
        return nil
    }

    /// `Transfer-Encoding`, every field of it read as one list, ending in one
    /// `chunked` (RFC 9112 §6.1: 400 otherwise); a coding before it, which the
    /// server would have to undo, is not implemented (501).
    private static func codingRefusal(_ fields: RequestFields) -> HTTPResponse? {
        guard let first = fields.transferEncoding else {
            return nil
        }
        let all = [first] + fields.moreTransferEncodings
        // libmicrohttpd reads a body as chunked only when the field is `chunked`
        // exactly: whitespace around it, or an empty member, leaves it waiting for the close.
        guard all.allSatisfy(isPlainList) else {
            return badFraming("Transfer-Encoding may have no empty list members and no whitespace at either end.")
        }
        let codings = all.flatMap(codingList)
        guard codings.last == "chunked", codings.count(where: { $0 == "chunked" }) == 1 else {
            return badFraming("The final transfer coding must be chunked, applied once.")
        }
        guard codings.count == 1 else {
            return .problem(
                status: 501, type: "unsupported-transfer-coding",
                detail: "The only transfer coding accepted is chunked.")
        }
        return nil
    }

    /// The codings a `Transfer-Encoding` or `Content-Encoding` field lists,
    /// lowercased, without optional whitespace and empty elements (RFC 9110 §5.6.1).
    static func codingList(_ field: UnsafePointer<CChar>) -> [Substring] {
        String(cString: field).lowercased().split(separator: ",").compactMap { element in
            guard let first = element.firstIndex(where: { !isOWS($0) }),
                let last = element.lastIndex(where: { !isOWS($0) })
            else { return nil }
            return element[first...last]
        }
    }

    /// Whether `field` is a list of non-empty members with no whitespace at either end.
    private static func isPlainList(_ field: UnsafePointer<CChar>) -> Bool {
        let text = String(cString: field)
        guard let first = text.first, let last = text.last, !isOWS(first), !isOWS(last) else {
            return false
        }
        return text.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { !$0.allSatisfy(isOWS) }
    }

    /// Optional whitespace (RFC 9110 §5.6.3).
    private static func isOWS(_ character: Character) -> Bool {
        character == " " || character == "\t"
    }

    /// Whether `field` is `uri-host [ ":" port ]` (RFC 3986 §3.2.2), or empty.
    static func isHost(_ field: UnsafePointer<CChar>) -> Bool {
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(field).assumingMemoryBound(to: UInt8.self), count: strlen(field))
        var rest = bytes[...]
        if rest.first == UInt8(ascii: "[") {
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")), close > rest.startIndex + 1,
                rest[(rest.startIndex + 1)..<close].allSatisfy({
                    isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
                })
            else {
                return false
            }
            rest = rest[(close + 1)...]
        } else {
            let name = rest.prefix { $0 != UInt8(ascii: ":") }
            guard name.allSatisfy(isNameByte) else {
                return false
            }
            rest = rest[name.endIndex...]
        }
        guard let colon = rest.first else {
            return true
        }
        return colon == UInt8(ascii: ":") && rest.dropFirst().allSatisfy(isDigit)
    }

    /// RFC 3986's reg-name bytes: unreserved, sub-delims and `%` of pct-encoded.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("-._~!$&'()*+,;=%".utf8).contains(byte)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    private static func allBytes(of field: UnsafePointer<CChar>, where test: (UInt8) -> Bool) -> Bool {
        var index = 0
        while field[index] != 0 {
            guard test(UInt8(bitPattern: field[index])) else {
                return false
            }
            index += 1
        }
        return true
    }

    private static func badFraming(_ detail: String) -> HTTPResponse {
        .problem(status: 400, type: "bad-framing", detail: detail)
    }

    private static func badHost(_ detail: String) -> HTTPResponse {
        .problem(status: 400, type: "bad-host", detail: detail)
    }
}
