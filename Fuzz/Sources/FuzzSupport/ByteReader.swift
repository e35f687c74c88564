/// Reads small numbers and choices from a fuzzer's input, front to back, so
/// that each byte steers one decision; once the input runs out every read is 0.
public struct ByteReader {
    private var bytes: ArraySlice<UInt8>

    public init(_ bytes: some Sequence<UInt8>) {
        self.bytes = ArraySlice(bytes)
    }

    public var isAtEnd: Bool { bytes.isEmpty }

    public mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    /// A number in `0..<count` (`count` at most 256); 0 when `count` is 0.
    public mutating func below(_ count: Int) -> Int {
        count <= 1 ? 0 : Int(byte()) % count
    }

    /// True with a probability of about `percent` in 100.
    public mutating func chance(_ percent: Int) -> Bool {
        Int(byte()) * 100 < percent * 256
    }

    /// One of `options`, which must not be empty.
    public mutating func pick<Element>(_ options: [Element]) -> Element {
        options[below(options.count)]
    }
}
