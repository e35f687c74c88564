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

    /// ``preferred(by:)-(String?)`` over the field's bytes.
    public static func preferred(by field: UnsafeBufferPointer<UInt8>) -> ContentCoding {
        // Thousandths of q per coding; -1 while not named.
        var named = [-1, -1, -1]
        var other = -1
        var index = 0
        while index < field.count {
            var end = index
            while end < field.count, field[end] != UInt8(ascii: ",") {
                end += 1
            }
            let element = UnsafeBufferPointer(rebasing: field[index..<end])
            index = end + 1
            guard let (name, weight) = Self.parse(element) else {
                continue
            }
            if let coding = Self.coding(named: name) {
                named[coding.rawValue] = max(named[coding.rawValue], weight)
            } else if name.count == 1, name[0] == UInt8(ascii: "*") {
                other = max(other, weight)
            }
        }
        var best = ContentCoding.identity
        var bestWeight = 0
        for coding in [ContentCoding.br, .gzip, .identity] {
            let weight =
                named[coding.rawValue] >= 0
                ? named[coding.rawValue]
                : (other >= 0 ? other : (coding == .identity ? 1 : 0))
            if weight > bestWeight {
                best = coding
                bestWeight = weight
            }
        }
        return best
    }

    /// One element of the list: its name, trimmed, and its `q` in thousandths
    /// (1000 without one); nil when empty or malformed.
    private static func parse(_ element: UnsafeBufferPointer<UInt8>) -> (UnsafeBufferPointer<UInt8>, Int)? {
        var parts = element.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).makeIterator()
        guard let first = parts.next() else {
            return nil
        }
        let name = trimmed(first)
        guard !name.isEmpty else {
            return nil
        }
        var weight = 1000
        while let parameter = parts.next() {
            let text = trimmed(parameter)
            guard text.count >= 2, text[text.startIndex] | 0x20 == UInt8(ascii: "q"),
                text[text.startIndex + 1] == UInt8(ascii: "=")
            else {
                continue
            }
            guard let parsed = qValue(text.dropFirst(2)) else {
                return nil
            }
            weight = parsed
        }
        return (UnsafeBufferPointer(rebasing: name), weight)
    }

    /// `0`, `0.5`, `1.000`…: a qvalue in thousandths; nil when malformed.
    private static func qValue(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard let first = text.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else {
            return nil
        }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        let rest = text.dropFirst()
        guard !rest.isEmpty else {
            return value
        }
        guard rest.first == UInt8(ascii: "."), rest.count <= 4 else {
            return nil
        }
        var scale = 100
        for digit in rest.dropFirst() {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else {
                return nil
            }
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    private static func trimmed(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) }) else {
            return text[text.startIndex..<text.startIndex]
        }
        return text[start...end]
    }

    /// The coding a name in the list stands for; `x-gzip` is `gzip` (RFC 9110 §8.4.1.3).
    private static func coding(named name: UnsafeBufferPointer<UInt8>) -> ContentCoding? {
        for (token, coding) in [("br", ContentCoding.br), ("gzip", .gzip), ("x-gzip", .gzip), ("identity", .identity)] {
            if name.count == token.utf8.count, zip(name, token.utf8).allSatisfy({ $0 | 0x20 == $1 }) {
                return coding
            }
        }
        return nil
    }
}
