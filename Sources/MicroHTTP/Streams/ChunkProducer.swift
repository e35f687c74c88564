/// Produces a response body piece by piece, sent with chunked transfer coding,
/// so a large page can send its first bytes before the rest is made.
public struct ChunkProducer: Sendable {
    let next: @Sendable () -> [UInt8]?

    /// - Parameter next: called on the connection's thread until it answers
    ///   nil; empty pieces are skipped.
    public init(_ next: @escaping @Sendable () -> [UInt8]?) {
        self.next = next
    }

    /// Every piece, concatenated (for in-process transports).
    public func collect() -> [UInt8] {
        var bytes: [UInt8] = []
        while let piece = next() {
            bytes += piece
        }
        return bytes
    }
}
