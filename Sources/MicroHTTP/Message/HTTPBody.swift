/// What a response sends after its headers.
public enum HTTPBody: Sendable {
    /// Bytes held in memory.
    case bytes([UInt8])
    /// A regular file, sent with `sendfile`. `size` is the size the caller saw
    /// (used for `Content-Length` in-process); the server sends the file's size
    /// at the moment it opens it.
    case file(path: String, size: Int)
    /// A Server-Sent-Events stream that stays open until closed by either side.
    case stream(EventStream)
    /// A chunked body produced piece by piece.
    case chunks(ChunkProducer)
}
