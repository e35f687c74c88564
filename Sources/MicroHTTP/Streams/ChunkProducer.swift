/// Produces a response body piece by piece, sent with chunked transfer coding,
/// so a large page can send its first bytes before the rest is made.
public struct ChunkProducer: Sendable {
    /// Makes the function that answers the next piece; called once per response,
    /// on the connection's thread, which then calls what it made until it answers nil.
    let makeNext: @Sendable () -> () -> [UInt8]?

    /// - Parameter next: called on the connection's thread until it answers
    ///   nil; empty pieces are skipped.
    public init(_ next: @escaping @Sendable () -> [UInt8]?) {
        makeNext = { next }
    }

    /// Sends the elements of `pieces` in order, each made only when the
    /// connection is ready for more; empty pieces are skipped.
    public init<Pieces: Sequence & Sendable>(pieces: Pieces) where Pieces.Element == [UInt8] {
        makeNext = {
            var iterator = pieces.makeIterator()
            return { iterator.next() }
        }
    }

    /// Pieces from the function `makeNext` makes for each response.
    init(makingNext: @escaping @Sendable () -> () -> [UInt8]?) {
        self.makeNext = makingNext
    }

    /// Every piece, concatenated (for in-process transports).
    public func collect() -> [UInt8] {
        let next = makeNext()
        var bytes: [UInt8] = []
        while let piece = next() {
            bytes += piece
        }
        return bytes
    }
}
