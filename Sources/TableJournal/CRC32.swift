/// CRC-32 (IEEE 802.3, the polynomial of zlib and PNG), computed incrementally.
///
/// Slicing-by-8: eight bytes per step through eight 256-entry tables, so a
/// checksum costs about a byte per cycle and never dominates a journal append.
struct CRC32: Sendable {
    private(set) var state: UInt32 = 0xFFFF_FFFF

    /// The checksum of everything passed to `update` so far.
    var value: UInt32 { state ^ 0xFFFF_FFFF }

    mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(buffer: UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update(buffer: $0) } }
    }

    mutating func update(buffer: UnsafeRawBufferPointer) {
        var crc = state
        var index = 0
        let count = buffer.count
        Self.tables.withUnsafeBufferPointer { table in
            while count - index >= 8 {
                let low =
                    crc
                    ^ (UInt32(buffer[index]) | UInt32(buffer[index + 1]) << 8
                        | UInt32(buffer[index + 2]) << 16 | UInt32(buffer[index + 3]) << 24)
                let high =
                    UInt32(buffer[index + 4]) | UInt32(buffer[index + 5]) << 8
                    | UInt32(buffer[index + 6]) << 16 | UInt32(buffer[index + 7]) << 24
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(buffer[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        state = crc
    }

    /// Table `k` (entries `k*256 ..< (k+1)*256`) advances the CRC over a byte followed by `k` zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[byte] = crc
        }
        for byte in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()
}
