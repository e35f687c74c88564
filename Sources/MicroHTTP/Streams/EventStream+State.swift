import CMicroHTTPD
import Dispatch
import Glibc

/// A stream's queue and the state of its direct write, changed only under the
/// stream's lock (``EventStream``'s `state`).
extension EventStream {
    /// The fields the direct write reads come first, so that a delivery reaching
    /// the stream finds them beside the lock, in the object's first cache line.
    struct State {
        /// No more bytes are accepted; the queue is still written out.
        var closed = false
        /// The connection is to be cut without writing the rest.
        var dropped = false
        var suspended = false
        /// A delivery has claimed the direct write and its bytes are on their way
        /// to the socket in a batch (``EventFanOut/send(_:to:)``): the stream
        /// is neither written nor resumed by anyone else until it finishes.
        var writing = false
        /// The connection's socket while it is attached, for the direct write.
        var socket: Int32 = -1
        var connection: ConnectionHandle?
        /// Bytes queued and not yet handed over, in all events: 0 exactly when
        /// `head == events.count`, as only non-empty events are queued and an
        /// event is forgotten once its last byte is handed over.
        var queuedCount = 0
        /// A directly written chunk the socket took only part of, and how much.
        /// While it is not empty the connection stays suspended (unless dropped).
        var unfinished: ArraySlice<UInt8> = []
        /// Queued events, oldest first, from `head` on (earlier slots are spent).
        var events: [[UInt8]] = []
        var head = 0
        /// Bytes of `events[head]` already handed to the connection.
        var sent = 0
        /// When the socket last took bytes of `unfinished`, and how long it may
        /// take none before the client is dropped (`DispatchTime` nanoseconds).
        var lastProgress: UInt64 = 0
        var writeTimeout: UInt64 = 30_000_000_000
        var retryDelay = DirectRetry.first
        var closeActions: [@Sendable () -> Void] = []
        /// Chunks the socket took (all or part) from their sender, by way.
        var written = Writes()

        /// Bytes waiting behind the event being written.
        var waitingCount: Int {
            head < events.count ? queuedCount - (events[head].count - sent) : 0
        }

        mutating func takeCloseActions() -> [@Sendable () -> Void] {
            defer { closeActions = [] }
            return closeActions
        }

        /// Lets a suspended connection run again (to write or to finish);
        /// never with a chunk half written.
        mutating func wake() {
            if suspended, unfinished.isEmpty, !writing, let connection {
                suspended = false
                MHD_resume_connection(connection.pointer)
            }
        }

        mutating func removeAll() {
            events = []
            head = 0
            sent = 0
            queuedCount = 0
            unfinished = []
        }

        /// Nothing queued and libmicrohttpd holding the connection suspended.
        var canWriteDirectly: Bool {
            suspended && !writing && socket >= 0 && queuedCount == 0 && unfinished.isEmpty && connection != nil
        }

        /// Writes `chunk` to the socket; keeps what it did not take.
        mutating func writeDirectly(_ chunk: [UInt8]) -> DirectWrite {
            let outcome = DirectWrite.send(chunk[...], to: socket)
            switch outcome {
            case .complete:
                written.direct += 1
            case .partial(let count):
                written.direct += 1
                keepUnfinished(chunk[count...])
            case .wouldBlock, .failed:
                break
            }
            return outcome
        }

        /// The socket took bytes and left `rest` of a chunk: it is retried soon,
        /// and the write timeout counts from now.
        mutating func keepUnfinished(_ rest: ArraySlice<UInt8>) {
            unfinished = rest
            lastProgress = DispatchTime.now().uptimeNanoseconds
            retryDelay = DirectRetry.first
        }

        /// The client is cut off without the rest of what it was sent.
        mutating func dropClient() -> [@Sendable () -> Void] {
            closed = true
            dropped = true
            removeAll()
            wake()
            return takeCloseActions()
        }

        /// Queues `events` behind what waits; false (and the client dropped)
        /// once more than `bufferLimit` bytes would wait behind the event
        /// being written for a client that does not read (``waitsForServer(bufferLimit:)``).
        mutating func enqueue(_ events: [[UInt8]], bufferLimit: Int) -> (Bool, [@Sendable () -> Void]) {
            var queued = false
            for bytes in events where bytes.count > 0 {
                guard waitingCount <= bufferLimit || waitsForServer(bufferLimit: bufferLimit) else {
                    return (false, dropClient())
                }
                self.events.append(bytes)
                queuedCount += bytes.count
                queued = true
            }
            if queued {
                wake()
            }
            return (true, [])
        }

        /// How many times `bufferLimit` may wait while the client's socket has room.
        static let serverDelayAllowance = 4

        /// Whether what waits over the bound waits for the server rather than
        /// for the client: the connection's socket has room (the client has
        /// read what it was sent) and at most ``serverDelayAllowance`` times
        /// the bound waits. A resumed stream is written when libmicrohttpd's
        /// worker thread next runs, which on a busy machine can be many events
        /// later; a client that reads promptly is not dropped for that. One
        /// `poll()` that does not wait, made only past the bound.
        func waitsForServer(bufferLimit: Int) -> Bool {
            guard socket >= 0, waitingCount <= bufferLimit * Self.serverDelayAllowance else { return false }
            var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLOUT) != 0
        }

        /// A claimed write (`writing`) the socket took none of: its events go
        /// first, before any queued while it was on its way. Nothing of the
        /// queue has been handed to libmicrohttpd meanwhile (`sent` is 0), as
        /// the connection stayed suspended.
        mutating func requeueFirst(_ unsent: [[UInt8]]) {
            let nonEmpty = unsent.filter { !$0.isEmpty }
            events.insert(contentsOf: nonEmpty, at: head)
            queuedCount += nonEmpty.reduce(0) { $0 + $1.count }
        }

        /// The head event is written: forget it.
        mutating func advance() {
            events[head] = []
            head += 1
            sent = 0
            if head == events.count {
                events.removeAll(keepingCapacity: events.capacity <= 64)
                head = 0
            } else if head >= 64, head * 2 >= events.count {
                events.removeFirst(head)
                head = 0
            }
        }
    }
}
