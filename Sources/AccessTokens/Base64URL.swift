/// Base64url without padding (RFC 4648 §5), as share links' keys spell
/// their parts: letters, digits, `-` and `_`, safe in URLs and cookies.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encoded(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { text.append(alphabet[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text`; nil when it is not unpadded base64url in its one
    /// spelling (no stray bits in its last character).
    static func decoded(_ text: some StringProtocol) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count * 3 / 4)
        var value = 0
        var bits = 0
        for character in characters {
            guard let digit = alphabet.firstIndex(of: character) else { return nil }
            value = ((value << 6) | digit) & 0xFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((value >> bits) & 0xFF))
            }
        }
        guard value & ((1 << bits) - 1) == 0 else { return nil }
        return bytes
    }
}
