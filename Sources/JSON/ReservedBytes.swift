/// Bytes written with plain pointer stores into room made for them once.
///
/// ``Swift/Array/append(atMost:_:)`` grows an array once for the most that a
/// writer can write, lets it write through a `ReservedBytes`, then sets the
/// array's count once to what was written. A row of a page or of a table's JSON
/// is written so in one step instead of some thirty `Array.append`s, each of
/// which checks that the buffer is not shared and has room (docs/perf-history/fixed-in-the-product.md,
/// *The 1,000-row page and its rows' JSON*).
///
/// Every write checks once that its bytes fit in what is left of the room — a
/// bound the caller got wrong is a precondition failure, never a write past the
/// buffer — and then stores them unchecked.
public struct ReservedBytes {
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    @usableFromInline var written = 0

    /// The bytes written so far.
    public var count: Int { written }

    @usableFromInline
    init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = start
        self.capacity = capacity
    }

    /// Room for `count` more bytes, checked once; the caller stores into it and
    /// answers how many it stored (at most `count`).
    @inlinable
    public mutating func write(atMost count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        precondition(count >= 0 && count <= capacity - written, "ReservedBytes: more bytes than the room reserved")
        let stored = body(start + written)
        precondition(stored <= count, "ReservedBytes: wrote more than it asked room for")
        written += stored
    }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        precondition(written < capacity, "ReservedBytes: more bytes than the room reserved")
        start[written] = byte
        written += 1
    }

    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        precondition(bytes.count <= capacity - written, "ReservedBytes: more bytes than the room reserved")
        (start + written).initialize(from: source, count: bytes.count)
        written += bytes.count
    }

    @inlinable
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inlinable
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// The most bytes ``appendDecimal(_:)`` writes: `Int.min` has 19 digits and a sign.
    public static let maximumDecimalCount = 20

    /// Appends `value` in decimal, as `String(value)` writes it, without going
    /// through `String`.
    public mutating func appendDecimal(_ value: Int) {
        write(atMost: Self.maximumDecimalCount) { output in
            var magnitude = value.magnitude
            var digits = 1
            var rest = magnitude / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            let sign = value < 0 ? 1 : 0
            if sign == 1 { output[0] = UInt8(ascii: "-") }
            var index = sign + digits
            repeat {
                index -= 1
                output[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            return sign + digits
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends what `write` writes, at most `maximumCount` bytes, in one step:
    /// the array grows once (geometrically, as `append` grows it), `write` stores
    /// through ``ReservedBytes``, and the count is set once to what it wrote.
    @inlinable
    public mutating func append(atMost maximumCount: Int, _ write: (inout ReservedBytes) -> Void) {
        guard maximumCount > 0 else { return }
        append(addingCapacity: maximumCount) { output in
            output.withUnsafeMutableBufferPointer { buffer, initialized in
                var room = ReservedBytes(start: buffer.baseAddress! + initialized, capacity: buffer.count - initialized)
                write(&room)
                initialized += room.count
            }
        }
    }
}
