import FuzzSupport
@testable import MicroHTTP

/// A request target as the live server sees it: libmicrohttpd splits the query
/// off at the first `?`, splits it at `&` and `=`, turns `+` into a space in
/// query arguments, and hands each piece to the server's `unescapeURL`.
struct RequestTarget {
    let path: String
    let query: [String: String]

    /// `target` as the C string the request line holds: cut at the first NUL.
    init(_ target: some Collection<UInt8>) {
        let bytes = target.prefix { $0 != 0 }
        let parts = bytes.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)
        path = Self.unescape(parts[0], plusIsSpace: false)
        var query: [String: String] = [:]
        for argument in parts.dropFirst().first?.split(separator: UInt8(ascii: "&")) ?? [] {
            let field = argument.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.unescape(field[0], plusIsSpace: true)
            if query[name] == nil {
                query[name] = field.count == 2 ? Self.unescape(field[1], plusIsSpace: true) : ""
            }
        }
        self.query = query
    }

    /// Runs the server's `unescapeURL` on `piece` in a C buffer and checks it
    /// against `expectedDecoding`; answers the text as the server reads it.
    private static func unescape(_ piece: some Collection<UInt8>, plusIsSpace: Bool) -> String {
        let input = piece.map { plusIsSpace && $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
        var buffer = input.map { CChar(bitPattern: $0) } + [0]
        let length = buffer.withUnsafeMutableBufferPointer { unescapeURL(nil, nil, $0.baseAddress) }
        let decoded = buffer.prefix(length).map { UInt8(bitPattern: $0) }
        require(buffer[length] == 0, "unescapeURL did not end its output with NUL")
        require(decoded == expectedDecoding(input), "unescapeURL(\(input)) gave \(decoded)")
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Percent-decoding as it should be: `%XY` with two hex digits becomes the
    /// byte 0xXY, except `%00`, which stays (a NUL would cut the C string short).
    private static func expectedDecoding(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]), high | low != 0
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
