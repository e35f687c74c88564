/// The framing shared by journal segments and snapshots.
///
/// A file starts with an 8-byte magic (`WTVJRNL1` for a segment, `WTVSNAP1` for a
/// snapshot) followed by frames, each
///
/// ```
/// length   UInt32 LE   bytes of payload (1 … 4 GiB − 1)
/// checksum UInt32 LE   CRC-32 of payload ‖ length ‖ sequence
/// sequence UInt64 LE   the record's number in the journal (1, 2, 3, …)
/// payload  JSON
/// ```
///
/// The checksum covers the length and sequence too, so a damaged header is caught
/// like a damaged payload.
enum JournalFrame {
    static let headerSize = 16
    static let segmentMagic = Array("WTVJRNL1".utf8)
    static let snapshotMagic = Array("WTVSNAP1".utf8)

    /// A payload copied behind room for its header, with the payload's checksum
    /// computed, so that sealing it (under the journal's lock) costs 12 bytes of CRC.
    struct Prepared: Sendable {
        private(set) var bytes: [UInt8]
        private let payloadCRC: CRC32

        init(payload: [UInt8]) throws(JournalError) {
            guard !payload.isEmpty, payload.count <= Int(UInt32.max) else {
                throw JournalError(.io, "a journal record must hold 1 byte to 4 GiB; this one holds \(payload.count)")
            }
            var bytes = [UInt8](repeating: 0, count: JournalFrame.headerSize)
            bytes.reserveCapacity(JournalFrame.headerSize + payload.count)
            bytes += payload
            self.bytes = bytes
            var crc = CRC32()
            crc.update(payload)
            payloadCRC = crc
        }

        /// The complete frame, numbered `sequence`.
        func sealed(sequence: UInt64) -> [UInt8] {
            var frame = bytes
            let length = UInt32(frame.count - JournalFrame.headerSize)
            var crc = payloadCRC
            var tail = [UInt8]()
            tail.appendLittleEndian(length)
            tail.appendLittleEndian(sequence)
            crc.update(tail)
            frame.storeLittleEndian(length, at: 0)
            frame.storeLittleEndian(crc.value, at: 4)
            frame.storeLittleEndian(sequence, at: 8)
            return frame
        }
    }

    /// One intact frame: its sequence number, where its payload lies, where it ends.
    struct Frame: Sendable {
        var sequence: UInt64
        var payload: Range<Int>
        var end: Int
    }

    /// The frame at `offset` (which is before the end of `bytes`), or why there is none.
    static func read(_ bytes: [UInt8], at offset: Int) -> Result<Frame, JournalError> {
        let remaining = bytes.count - offset
        guard remaining >= headerSize else {
            return .failure(JournalError(.damaged, "record header cut short (\(remaining) of \(headerSize) bytes)"))
        }
        let length = Int(bytes.loadLittleEndian(UInt32.self, at: offset))
        let checksum = bytes.loadLittleEndian(UInt32.self, at: offset + 4)
        let sequence = bytes.loadLittleEndian(UInt64.self, at: offset + 8)
        guard length > 0 else { return .failure(JournalError(.damaged, "record of length 0")) }
        guard length <= remaining - headerSize else {
            return .failure(
                JournalError(
                    .damaged, "record cut short (\(length) bytes declared, \(remaining - headerSize) present)"))
        }
        let payload = (offset + headerSize)..<(offset + headerSize + length)
        var crc = CRC32()
        crc.update(bytes[payload])
        crc.update(bytes[offset..<(offset + 4)])
        crc.update(bytes[(offset + 8)..<(offset + 16)])
        guard crc.value == checksum else { return .failure(JournalError(.damaged, "checksum mismatch")) }
        return .success(Frame(sequence: sequence, payload: payload, end: payload.upperBound))
    }

    /// The offset of the first intact frame after a damaged one at `offset` whose
    /// sequence number follows `lastSequence`, or nil when none does: telling a torn
    /// tail (nothing valid after it) from damage in the middle (records after it).
    /// Offsets whose sequence field is implausible are skipped without a checksum.
    static func nextIntactFrame(in bytes: [UInt8], after offset: Int, lastSequence: UInt64) -> Int? {
        var candidate = offset + 1
        while candidate + headerSize <= bytes.count {
            let sequence = bytes.loadLittleEndian(UInt64.self, at: candidate + 8)
            if sequence > lastSequence, sequence - lastSequence <= 1 << 32,
                case .success = read(bytes, at: candidate)
            {
                return candidate
            }
            candidate += 1
        }
        return nil
    }
}

extension [UInt8] {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func storeLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        Swift.withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { self[offset + index] = byte }
        }
    }

    func loadLittleEndian<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        var value = T.zero
        for index in (0..<MemoryLayout<T>.size).reversed() {
            value = value << 8 | T(self[offset + index])
        }
        return value
    }
}
