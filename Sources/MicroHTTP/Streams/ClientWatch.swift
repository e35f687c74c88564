import CMicroHTTPD
import Dispatch
import Glibc

/// Notices a client leaving its event stream while the stream is suspended,
/// at no cost while nothing happens (docs/ARCHITECTURE.md, Concurrency).
///
/// libmicrohttpd looks at no suspended connection, and a socket whose client
/// closed it still takes the next write (the client answers it with a reset):
/// left to writes, a departed client is noticed at the second event sent to
/// it — for a view that rarely changes, hundreds of edits later — and until
/// then its stream is fed and its view followed. So the server keeps every
/// stream's socket in an epoll set of its own, watched for the client's end
/// (`EPOLLRDHUP`, with `EPOLLHUP` and `EPOLLERR`), once (`EPOLLONESHOT`). A
/// Dispatch source reads the set when it is ready, and each stream whose
/// client left is dropped at once (``EventStream/clientLeft()``): closed, its
/// close actions run, its connection handed back to libmicrohttpd to be let go.
///
/// Part of the server's state, behind its lock (``HTTPServer``), like the
/// streams it watches: every use of the epoll set is under that lock, and
/// none after ``stop()``, so no descriptor number is used once it is closed.
struct ClientWatch {
    private let epoll: Int32
    /// Reads the set when it is ready; holds the server until ``stop()``.
    private let source: DispatchSourceRead
    /// The streams watched, by the key their socket's events carry.
    private var streams: [UInt64: EventStream] = [:]
    /// Each watched stream's key and socket.
    private var keys: [ObjectIdentifier: (key: UInt64, socket: Int32)] = [:]
    private var nextKey: UInt64 = 0

    /// Nil when the kernel gives no epoll set; clients are then noticed at
    /// the first write to them that fails. `ready` runs on a Dispatch queue
    /// whenever a watched client may have left.
    init?(ready: @escaping @Sendable () -> Void) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else {
            return nil
        }
        self.epoll = epoll
        source = DispatchSource.makeReadSource(fileDescriptor: epoll, queue: .global())
        source.setEventHandler(handler: ready)
        source.setCancelHandler { _ = Glibc.close(epoll) }
        source.resume()
    }

    /// Watches `socket`, the connection of `stream`, until ``forget(_:)``.
    mutating func watch(_ stream: EventStream, socket: Int32) {
        let key = nextKey
        nextKey += 1
        guard socket >= 0, wtv_watch_peer_end(epoll, socket, key) == 0 else {
            return
        }
        streams[key] = stream
        keys[ObjectIdentifier(stream)] = (key, socket)
    }

    /// Stops watching `stream`'s socket, before libmicrohttpd closes it. A
    /// stream dropped for its client's leaving is forgotten already; its
    /// socket leaves the set when it is closed.
    mutating func forget(_ stream: EventStream) {
        guard let (key, socket) = keys.removeValue(forKey: ObjectIdentifier(stream)) else {
            return
        }
        streams[key] = nil
        _ = wtv_unwatch(epoll, socket)
    }

    /// The streams whose clients left, as the set reports them now; each is
    /// forgotten, to be dropped by the caller once the server's lock is let go.
    mutating func takeLeavers() -> [EventStream] {
        var ready = [UInt64](repeating: 0, count: 64)
        let count = wtv_ready_keys(epoll, &ready, Int32(ready.count))
        return ready.prefix(max(0, Int(count))).compactMap { key in
            guard let stream = streams.removeValue(forKey: key) else {
                return nil
            }
            keys[ObjectIdentifier(stream)] = nil
            return stream
        }
    }

    /// Ends the watch and closes its epoll set (server shutdown, once every
    /// stream has ended); the watch is not used again.
    func stop() {
        source.cancel()
    }
}
