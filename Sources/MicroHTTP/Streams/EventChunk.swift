import Glibc

/// Events on their way to many streams, framed once as the HTTP/1.1 chunk a
/// suspended stream writes to its socket itself (docs/ARCHITECTURE.md,
/// Concurrency: the direct write).
///
/// Handing one `EventChunk` to every subscriber spares each stream the framing:
/// the chunk is made once, and each suspended stream sends it with one
/// `send()`.
public struct EventChunk: Sendable {
    /// The events, in order, as ``EventStream/send(contentsOf:)`` takes them.
    public let events: [[UInt8]]
    /// `SIZE\r\n`, the events, `\r\n`; empty when there are no bytes, or more
    /// than ``directWriteLimit``, which go through libmicrohttpd instead.
    let framed: [UInt8]

    /// The most event bytes a stream writes to its socket itself; larger
    /// batches are queued for libmicrohttpd, which waits for a slow socket.
    /// Deliveries paced under a fast stream of edits carry tens of KiB to each
    /// stream (docs/ARCHITECTURE.md, Concurrency: the direct write), which one
    /// `send()` writes for less than libmicrohttpd's resumption and blocks.
    public static let directWriteLimit = 256 * 1024

    public init(_ events: [[UInt8]]) {
        self.events = events
        framed = Self.frame(events)
    }

    /// One chunk as libmicrohttpd writes it (upper-case hexadecimal size, no
    /// extension), or `[]`.
    static func frame(_ events: [[UInt8]]) -> [UInt8] {
        let size = events.reduce(0) { $0 + $1.count }
        guard size > 0, size <= directWriteLimit else {
            return []
        }
        var chunk = Array(String(size, radix: 16, uppercase: true).utf8)
        chunk.reserveCapacity(chunk.count + size + 4)
        chunk += [13, 10]
        for event in events {
            chunk += event
        }
        chunk += [13, 10]
        return chunk
    }
}

/// What one non-blocking `send()` of bytes to a stream's socket did.
enum DirectWrite: Equatable {
    /// Every byte is in the socket.
    case complete
    /// The first `count` bytes (at least one, not all) are in the socket.
    case partial(Int)
    /// Nothing was written: the socket is full (`wouldBlock`) or failed.
    case wouldBlock
    case failed

    /// Sends `bytes` to `socket` without blocking and without SIGPIPE.
    static func send(_ bytes: ArraySlice<UInt8>, to socket: Int32) -> DirectWrite {
        let written = bytes.withUnsafeBytes { buffer in
            Glibc.send(socket, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        }
        return DirectWrite(result: written < 0 ? -Int(errno) : written, of: bytes.count)
    }

    /// What a send of `count` bytes did, from its `result`: the bytes the
    /// socket took, or minus the errno (as `CSendRing` reports each send).
    init(result: Int, of count: Int) {
        if result == count {
            self = .complete
        } else if result > 0 {
            self = .partial(result)
        } else if result == -Int(EAGAIN) || result == -Int(EWOULDBLOCK) || result == -Int(EINTR) {
            self = .wouldBlock
        } else {
            self = .failed
        }
    }
}
