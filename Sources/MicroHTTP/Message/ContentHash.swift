/// A 64-bit FNV-1a hash of bytes, as 16 hex digits: a fingerprint of content
/// for entity tags and versioned file names. Stable across processes and
/// machines (unlike `Hasher`), not meant to resist a chosen collision.
public struct ContentHash: Sendable {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// Mixes `bytes` in.
    public mutating func combine<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
    }

    /// The hash of what was mixed in, as 16 lowercase hex digits.
    public var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash of `bytes` alone.
    public static func hex<Bytes: Sequence>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hash = ContentHash()
        hash.combine(bytes)
        return hash.hex
    }
}
