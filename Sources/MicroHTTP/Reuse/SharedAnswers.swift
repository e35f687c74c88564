import Glibc
import Synchronization

/// Reusable GET answers kept once for all worker threads, as their bytes
/// rather than as ready libmicrohttpd responses: the second tier behind the
/// threads' own shelves (``PreparedResponses``), for answers read too rarely
/// to earn a place there (docs/ARCHITECTURE.md, Kept answers).
///
/// A ready libmicrohttpd response holds each header field in three
/// allocations of its own, more than a row's body, and each thread keeps its
/// own copy. Here an answer is one allocation holding its path and its body,
/// and its header fields are shared with the answer kept before it when they
/// are the same (every row of a table at one version has the same fields). So
/// the budget holds several times as many answers; sending one costs making a
/// libmicrohttpd response from it (one copy of the body, the fields added from
/// bytes made once), far less than making the answer.
///
/// The table: open addressing with linear probing over a power-of-two number
/// of slots, at most half of them full (it doubles first), each slot a hash
/// (0 when empty) and the answer, which holds the path compared on a match.
/// Looking up reads a slot and the answer; keeping may replace an answer in
/// place. When an answer does not fit the budget, every answer is dropped
/// first, as a shelf is emptied: O(1) amortized, and the answers still read
/// come back at their next read.
///
/// One `Mutex` guards the table; it is held to look a path up or to keep an
/// answer, never while a response is made or sent. Answers are never changed
/// once made, so one taken out of the table may be read without the lock.
final class SharedAnswers: Sendable {
    /// One kept answer, a 200: its path's bytes then its body's in one
    /// allocation, never changed once made.
    final class Answer: @unchecked Sendable {
        let coding: ContentCoding
        let pathCount: Int
        let fields: NativeHeaderFields
        let route: RouteLabel?
        let reuse: ResponseReuse
        private let bytes: UnsafeMutableRawBufferPointer

        init(
            key: PreparedResponses.Key, body: [UInt8], fields: NativeHeaderFields, route: RouteLabel?,
            reuse: ResponseReuse
        ) {
            coding = key.coding
            pathCount = key.path.count
            self.fields = fields
            self.route = route
            self.reuse = reuse
            bytes = .allocate(byteCount: key.path.count + body.count, alignment: 1)
            UnsafeMutableRawBufferPointer(rebasing: bytes[..<pathCount]).copyMemory(from: key.path)
            body.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: bytes[pathCount...]).copyMemory(from: $0) }
        }

        deinit {
            bytes.deallocate()
        }

        /// The body's bytes, valid while the answer lives.
        var body: UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: bytes[pathCount...])
        }

        /// The bytes counted for it.
        var size: Int {
            bytes.count + SharedAnswers.answerOverhead
        }

        fileprivate func answers(_ key: PreparedResponses.Key) -> Bool {
            coding == key.coding && pathCount == key.path.count
                && (pathCount == 0 || memcmp(bytes.baseAddress!, key.path.baseAddress!, pathCount) == 0)
        }
    }

    /// One place in the table: the hash and the answer side by side, so a
    /// lookup reads one cache line of the slots.
    private struct Slot {
        /// The key's hash told apart by coding (``mixed(_:)``), 0 when the slot is empty.
        var hash = 0
        var answer: Answer?
    }

    /// What the `Mutex` guards: no thread touches it but under the lock.
    private struct State: ~Copyable, @unchecked Sendable {
        var slots = [Slot](repeating: Slot(), count: 16)
        var count = 0
        var bytes = 0
        /// The fields of the answer kept last, which the next shares when its own are the same.
        var lastFields: NativeHeaderFields?
    }

    /// Bytes counted for an answer besides its path and body: the object, the
    /// allocator's rounding and bookkeeping, and its share of the slots.
    static let answerOverhead = 176

    private let state = Mutex(State())
    /// Bytes kept at most; 0 keeps nothing.
    let budget: Int

    init(budget: Int) {
        self.budget = budget
    }

    /// Whether anything is ever kept.
    var keepsAnswers: Bool {
        budget > 0
    }

    /// The answer kept for `key`, when its revision still holds and it may be
    /// sent to a request with `credentials` (``ResponseReuse/admits``).
    func answer(for key: PreparedResponses.Key, credentials: CredentialFields) -> Answer? {
        guard keepsAnswers else {
            return nil
        }
        let answer = state.withLock { state -> Answer? in
            state.slots[Self.slot(of: key, in: state)].answer
        }
        guard let answer, answer.reuse.holds(for: credentials) else {
            return nil
        }
        return answer
    }

    /// Keeps `response`, when it is a reusable 200 of at most a sixteenth of
    /// the budget, for `key`, in place of the answer kept for it before.
    func keep(_ response: HTTPResponse, route: RouteLabel?, for key: PreparedResponses.Key) {
        guard keepsAnswers, let reuse = response.reuse, response.status == 200, case .bytes(let body) = response.body,
            body.count <= budget / 16, body.count + key.path.count + Self.answerOverhead <= budget
        else {
            return
        }
        var fields = state.withLock { state in state.lastFields }
        if fields?.headers != response.headers {
            fields = NativeHeaderFields(response.headers)
        }
        let answer = Answer(key: key, body: body, fields: fields!, route: route, reuse: reuse)
        let size = answer.size
        state.withLock { state in
            state.lastFields = answer.fields
            if state.bytes + size > budget {
                Self.empty(&state)
            }
            var slot = Self.slot(of: key, in: state)
            if let replaced = state.slots[slot].answer {
                state.bytes -= replaced.size
            } else {
                if (state.count + 1) * 2 > state.slots.count {
                    Self.grow(&state)
                    slot = Self.slot(of: key, in: state)
                }
                state.count += 1
            }
            state.slots[slot] = Slot(hash: Self.mixed(key), answer: answer)
            state.bytes += size
        }
    }

    /// The slot holding `key`'s answer, or the empty slot where it would go.
    private static func slot(of key: PreparedResponses.Key, in state: borrowing State) -> Int {
        let mask = state.slots.count - 1
        let hash = Self.mixed(key)
        var slot = hash & mask
        while state.slots[slot].hash != 0 {
            if state.slots[slot].hash == hash, state.slots[slot].answer!.answers(key) {
                return slot
            }
            slot = (slot + 1) & mask
        }
        return slot
    }

    /// The path's hash told apart by coding: each coding's answer is kept under its own.
    private static func mixed(_ key: PreparedResponses.Key) -> Int {
        let hash = key.hash ^ (key.coding.rawValue &* 0x2545_F491_4F6C_DD1D)
        return hash == 0 ? 1 : hash
    }

    private static func grow(_ state: inout State) {
        let old = state.slots
        let mask = old.count * 2 - 1
        state.slots = [Slot](repeating: Slot(), count: old.count * 2)
        for slot in old where slot.hash != 0 {
            var target = slot.hash & mask
            while state.slots[target].hash != 0 {
                target = (target + 1) & mask
            }
            state.slots[target] = slot
        }
    }

    private static func empty(_ state: inout State) {
        for index in state.slots.indices where state.slots[index].hash != 0 {
            state.slots[index] = Slot()
        }
        state.count = 0
        state.bytes = 0
    }
}
