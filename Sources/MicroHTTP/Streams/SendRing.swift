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

/// What the kernel offers deliveries for batched sends, asked once
/// (``probe()``): the answer decides whether ``EventFanOut/send(_:to:)``
/// sends through rings or one `send()` a stream.
public enum SendRingSupport: Sendable, Equatable, CustomStringConvertible {
    /// Rings that take `IORING_OP_SEND` (Linux 5.6 and later).
    case supported
    /// No ring at all: a kernel before 5.1, `kernel.io_uring_disabled`, a
    /// container runtime's seccomp profile.
    case refused
    /// Rings without the send operation (Linux 5.1 to 5.5), whose batches
    /// would all fail and be sent again one by one.
    case noSendOperation
    /// Not asked for: the server was told to send one stream at a time
    /// (``EventFanOut/unbatched``), so that `make bench`'s ablation step
    /// measures what rings buy.
    case switchedOff

    /// Asks the kernel with a ring of one entry (`IORING_REGISTER_PROBE`).
    public static func probe() -> SendRingSupport {
        switch wtv_send_ring_probe() {
        case WTV_SEND_RING_SUPPORTED: .supported
        case WTV_SEND_RING_NO_SEND: .noSendOperation
        default: .refused
        }
    }

    /// For the start-up log line that says why events are not batched.
    public var description: String {
        switch self {
        case .supported: "io_uring sends events in batches"
        case .refused:
            "io_uring is refused here (an old kernel, kernel.io_uring_disabled, a container's seccomp profile?)"
        case .noSendOperation: "io_uring here has no IORING_OP_SEND (Linux before 5.6)"
        case .switchedOff: "io_uring is switched off (--ablate send-ring)"
        }
    }
}

/// The rings deliveries borrow: made when a delivery finds none idle, kept
/// for the next one; none at all where the probe found no send ring
/// (``SendRingSupport``), and deliveries then send one socket at a time.
final class SendRings: Sendable {
    /// The process's pool, with the kernel probed at its first use (start-up).
    static let shared = SendRings(support: .probe())

    /// What the probe found: deliveries use rings only when `.supported`.
    /// Tests make pools with each answer, to run both paths the same way.
    let support: SendRingSupport

    init(support: SendRingSupport) {
        self.support = support
    }

    private struct Pool {
        var idle: [SendRing] = []
        /// The kernel refused a ring once although the probe allowed it (out
        /// of locked memory, say): it is not asked again.
        var unavailable = false
    }

    private let pool = Mutex(Pool())

    /// Rings kept idle at most; more deliveries at once make their own.
    static let idleLimit = 8

    /// A ring for the calling delivery, or nil to send one socket at a time.
    func take() -> SendRing? {
        guard support == .supported else {
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

    /// What deliveries find: the probe's answer, or `.refused` when the probe
    /// allowed rings but making one failed.
    var availability: SendRingSupport {
        support == .supported && !isAvailable ? .refused : support
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
