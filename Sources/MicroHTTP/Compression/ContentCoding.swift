import Glibc

/// A content coding the server can answer in, chosen from the request's
/// `Accept-Encoding` (RFC 9110 §12.5.3).
public enum ContentCoding: Int, Sendable, CaseIterable {
    case identity = 0
    case gzip = 1
    case br = 2

    /// The token in `Accept-Encoding` and `Content-Encoding`.
    public var token: String {
        switch self {
        case .identity: "identity"
        case .gzip: "gzip"
        case .br: "br"
        }
    }

    /// The coding to answer `acceptEncoding` with: the highest `q` among
    /// `br`, `gzip` and `identity` (`*` stands for those not named), `br`
    /// before `gzip` before `identity` at equal `q`. Without the field, or
    /// when nothing offered is acceptable, `identity`: the answer is sent
    /// as it is rather than refused.
    public static func preferred(by acceptEncoding: String?) -> ContentCoding {
        guard var text = acceptEncoding else {
            return .identity
        }
        return text.withUTF8 { preferred(by: $0) }
    }

    /// ``preferred(by:)-(String?)`` over the field's bytes. Every request
    /// asks this, kept answers included, so the values clients usually send
    /// are matched whole (``usualValues``); any other is parsed.
    public static func preferred(by field: UnsafeBufferPointer<UInt8>) -> ContentCoding {
        usual(field) ?? negotiated(field)
    }

    /// `Accept-Encoding` as browsers, curl and HTTP libraries send it, with
    /// the coding ``negotiated(_:)`` chooses for each: a test holds the two
    /// to the same verdicts.
    static let usualValues: [(value: StaticString, coding: ContentCoding)] = [
        ("gzip", .gzip),
        ("br", .br),
        ("gzip, deflate, br, zstd", .br),  // Chrome, Edge, Firefox
        ("gzip, deflate, br", .br),  // Safari, older Firefox
        ("deflate, gzip, br, zstd", .br),  // curl --compressed
        ("deflate, gzip", .gzip),  // curl --compressed without br
        ("gzip, deflate", .gzip),  // Python, Go, Java clients
        ("gzip,deflate", .gzip),
        ("br, gzip", .br),
        ("gzip, br", .br),
        ("identity", .identity),
    ]

    /// The coding for `field` when it is one of ``usualValues``, byte for byte.
    static func usual(_ field: UnsafeBufferPointer<UInt8>) -> ContentCoding? {
        guard let bytes = field.baseAddress else {
            return nil
        }
        for (value, coding) in usualValues
        where value.utf8CodeUnitCount == field.count && memcmp(value.utf8Start, bytes, field.count) == 0 {
            return coding
        }
        return nil
    }

    /// The field parsed as RFC 9110 §12.5.3 reads it: a list of codings,
    /// each with an optional `q` (other parameters ignored, an element with
    /// a malformed `q` ignored whole).
    static func negotiated(_ field: UnsafeBufferPointer<UInt8>) -> ContentCoding {
        // Thousandths of q; -1 while not named.
        var br = -1
        var gzip = -1
        var identity = -1
        var other = -1
        var index = 0
        while index < field.count {
            var end = index
            while end < field.count, field[end] != UInt8(ascii: ",") {
                end += 1
            }
            if let (name, weight) = element(of: field, from: index, to: end) {
                switch coding(named: name, in: field) {
                case .br: br = max(br, weight)
                case .gzip: gzip = max(gzip, weight)
                case .identity: identity = max(identity, weight)
                case nil:
                    if name.count == 1, field[name.lowerBound] == UInt8(ascii: "*") {
                        other = max(other, weight)
                    }
                }
            }
            index = end + 1
        }
        // `*` stands for the codings not named; identity is acceptable unless refused.
        func weight(_ named: Int, unnamed: Int) -> Int {
            named >= 0 ? named : (other >= 0 ? other : unnamed)
        }
        // The highest q wins; br before gzip before identity at equal q.
        let brWeight = weight(br, unnamed: 0)
        let gzipWeight = weight(gzip, unnamed: 0)
        let identityWeight = weight(identity, unnamed: 1)
        if brWeight > 0, brWeight >= gzipWeight, brWeight >= identityWeight {
            return .br
        }
        if gzipWeight > 0, gzipWeight >= identityWeight {
            return .gzip
        }
        return .identity
    }

    /// The element of `field` between `start` and `end`: its name, trimmed,
    /// and its `q` in thousandths (1000 without one); nil when it has no
    /// name or a malformed `q`.
    private static func element(of field: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (
        Range<Int>, Int
    )? {
        var cut = start
        while cut < end, field[cut] != UInt8(ascii: ";") {
            cut += 1
        }
        let name = trimmed(start..<cut, in: field)
        guard !name.isEmpty else {
            return nil
        }
        var weight = 1000
        while cut < end {
            let parameterStart = cut + 1
            cut = parameterStart
            while cut < end, field[cut] != UInt8(ascii: ";") {
                cut += 1
            }
            let parameter = trimmed(parameterStart..<cut, in: field)
            guard parameter.count >= 2, field[parameter.lowerBound] | 0x20 == UInt8(ascii: "q"),
                field[parameter.lowerBound + 1] == UInt8(ascii: "=")
            else {
                continue
            }
            guard let parsed = qValue(parameter.lowerBound + 2..<parameter.upperBound, in: field) else {
                return nil
            }
            weight = parsed
        }
        return (name, weight)
    }

    /// `0`, `0.5`, `1.000`…: a qvalue in thousandths; nil when malformed.
    private static func qValue(_ range: Range<Int>, in field: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = range.first.map({ field[$0] }), first == UInt8(ascii: "0") || first == UInt8(ascii: "1")
        else {
            return nil
        }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        guard range.count > 1 else {
            return value
        }
        guard field[range.lowerBound + 1] == UInt8(ascii: "."), range.count <= 5 else {
            return nil
        }
        var scale = 100
        for index in range.lowerBound + 2..<range.upperBound {
            let digit = field[index]
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else {
                return nil
            }
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    private static func trimmed(_ range: Range<Int>, in field: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, field[lower] == UInt8(ascii: " ") || field[lower] == UInt8(ascii: "\t") {
            lower += 1
        }
        while upper > lower, field[upper - 1] == UInt8(ascii: " ") || field[upper - 1] == UInt8(ascii: "\t") {
            upper -= 1
        }
        return lower..<upper
    }

    /// The coding a name in the list stands for, without regard to case;
    /// `x-gzip` is `gzip` (RFC 9110 §8.4.1.3).
    private static func coding(named name: Range<Int>, in field: UnsafeBufferPointer<UInt8>) -> ContentCoding? {
        func isName(_ token: StaticString) -> Bool {
            guard name.count == token.utf8CodeUnitCount else {
                return false
            }
            for offset in 0..<name.count {
                let byte = field[name.lowerBound + offset]
                let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                if lower != token.utf8Start[offset] {
                    return false
                }
            }
            return true
        }
        if isName("br") {
            return .br
        }
        if isName("gzip") || isName("x-gzip") {
            return .gzip
        }
        return isName("identity") ? .identity : nil
    }
}
