import CSendRing
import Glibc
import Synchronization

/// What sends one buffer to many sockets and reports each socket's outcome, as
/// a non-blocking `send()` without SIGPIPE would: a ``SendRing``, or a test's
/// stand-in that chooses the outcomes.
protocol BatchSender: AnyObject {
    /// How many sockets one ``send(_:to:results:)`` takes at most.
    var capacity: Int { get }
    /// The sender failed and is not to be used again.
    var isBroken: Bool { get }
    /// Sends `bytes` to each of `sockets` (at most ``capacity``); `results[i]`
    /// is the bytes `sockets[i]` took or minus the errno, with `-EIO` for a
    /// send whose outcome is unknown because the sender broke.
    func send(_ bytes: [UInt8], to sockets: [Int32], results: inout [Int])
}

/// An io_uring that sends one buffer to many sockets with one system call
/// (`CSendRing`), used by one delivery at a time (``SendRings``).
///
/// Sending an event to a thousand subscribers one `send()` each pays a
/// thousand system-call entries and exits, file lookups and returns; handed
/// to the kernel as one batch, the same sends cost about a sixth less
/// (docs/ARCHITECTURE.md, Concurrency: the direct write).
final class SendRing: BatchSender, @unchecked Sendable {
    // Unchecked: a ring is used by the one thread that took it from
    // `SendRings` until it gives it back, behind that pool's lock.
    private let ring: OpaquePointer
    let capacity: Int
    private(set) var isBroken = false

    /// Sockets a batch takes: enough that a system call is shared by hundreds of
    /// sends, few enough that the rings of idle threads stay small (48 KiB).
    static let entries: UInt32 = 512

    init?() {
        guard let ring = wtv_send_ring_create(Self.entries) else {
            return nil
        }
        self.ring = ring
        capacity = Int(wtv_send_ring_capacity(ring))
    }

    deinit {
        wtv_send_ring_destroy(ring)
    }

    func send(_ bytes: [UInt8], to sockets: [Int32], results: inout [Int]) {
        precondition(sockets.count <= capacity && results.count >= sockets.count)
        let status = sockets.withUnsafeBufferPointer { sockets in
            bytes.withUnsafeBytes { bytes in
                results.withUnsafeMutableBufferPointer { results in
                    wtv_send_ring_send(
                        ring,
                        sockets.baseAddress,
                        UInt32(sockets.count),
                        bytes.baseAddress,
                        bytes.count,
                        results.baseAddress
                    )
                }
            }
        }
        if status != 0 {
            isBroken = true
        }
    }
}

/// The rings deliveries borrow: made when a delivery finds none idle, kept
/// for the next one; none at all where the kernel refuses io_uring (a
/// container's seccomp filter, `kernel.io_uring_disabled`), and deliveries
/// then send one socket at a time.
final class SendRings: Sendable {
    static let shared = SendRings()

    /// Whether deliveries may use a ring: tests make a pool without, to run
    /// the one-`send()`-per-stream path the same way.
    let isEnabled: Bool

    init(enabled: Bool = true) {
        isEnabled = enabled
    }

    private struct Pool {
        var idle: [SendRing] = []
        /// The kernel refused a ring once: it is not asked again.
        var unavailable = false
    }

    private let pool = Mutex(Pool())

    /// Rings kept idle at most; more deliveries at once make their own.
    static let idleLimit = 8

    /// A ring for the calling delivery, or nil to send one socket at a time.
    func take() -> SendRing? {
        guard isEnabled else {
            return nil
        }
        let (ring, unavailable) = pool.withLock { ($0.idle.popLast(), $0.unavailable) }
        if let ring {
            return ring
        }
        guard !unavailable else {
            return nil
        }
        guard let made = SendRing() else {
            pool.withLock { $0.unavailable = true }
            return nil
        }
        return made
    }

    /// Whether deliveries get rings here; the ring made to find out is kept.
    var isAvailable: Bool {
        guard let ring = take() else {
            return false
        }
        giveBack(ring)
        return true
    }

    /// Gives back a ring from ``take()``; a broken one is dropped.
    func giveBack(_ ring: SendRing) {
        guard !ring.isBroken else {
            return
        }
        pool.withLock { pool in
            if pool.idle.count < Self.idleLimit {
                pool.idle.append(ring)
            }
        }
    }
}
