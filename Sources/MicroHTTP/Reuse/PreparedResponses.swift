import CMicroHTTPD
import Glibc

/// Reusable GET answers (see ``ResponseReuse``) kept as ready libmicrohttpd
/// responses, by path. Sending one again costs one lookup and one atomic load:
/// no routing, no handler, no copy of the body or of its header fields.
///
/// Each worker thread keeps its own shelf (``PerThread``), so answering from
/// it contends for nothing another core holds; the price is that each thread
/// makes its own copy of an answer, once per revision. The shelves share the
/// budget: each holds at most `budget / threads` bytes (bodies and a fixed
/// overhead each), and a body larger than a sixteenth of the budget is never
/// kept.
///
/// A shelf keeps every answer until it first fills. From then on it keeps an
/// answer only for a path asked for before since it was last emptied
/// (``SeenPaths``): reads spread over more paths than fit would otherwise
/// keep an answer at every miss and empty the shelf every few thousand
/// requests, paying for answers never read again (docs/ARCHITECTURE.md, Kept
/// answers), while the paths read again and again still get theirs.
///
/// Behind the shelves, ``SharedAnswers`` may keep answers once for every
/// thread, more compactly, for paths no shelf keeps.
final class PreparedResponses: Sendable {
    /// One kept answer. libmicrohttpd responses are reference counted and
    /// never changed once made, so many connections may send one at once;
    /// the last to finish frees it.
    final class Entry: @unchecked Sendable {
        let native: OpaquePointer
        let status: Int
        let route: RouteLabel?
        let reuse: ResponseReuse
        let size: Int

        init(native: OpaquePointer, status: Int, route: RouteLabel?, reuse: ResponseReuse, size: Int) {
            self.native = native
            self.status = status
            self.route = route
            self.reuse = reuse
            self.size = size
        }

        deinit {
            MHD_destroy_response(native)
        }
    }

    /// What an answer is kept under: the path's bytes as libmicrohttpd hands
    /// them over (valid while the request is being answered), their hash,
    /// computed once for the lookup and the keeping, and the coding.
    struct Key {
        let path: UnsafeRawBufferPointer
        let hash: Int
        let coding: ContentCoding

        init(path: UnsafePointer<CChar>, coding: ContentCoding) {
            self.path = UnsafeRawBufferPointer(start: path, count: strlen(path))
            self.hash = AnswerTable<Entry>.hash(self.path)
            self.coding = coding
        }
    }

    /// One worker thread's answers. Only that thread ever touches it:
    /// ``PerThread`` hands each thread its own, and no shelf is read through
    /// `all`. So it needs no lock.
    private final class Shelf: @unchecked Sendable {
        /// One table per ``ContentCoding``, by its raw value: each coding's
        /// answer is kept compressed, with its own entity tag.
        let entries = ContentCoding.allCases.map { _ in AnswerTable<Entry>() }
        var bytes = 0
        /// Made when the shelf first fills: from then on only answers to
        /// paths in it are kept.
        var seen: SeenPaths?
        /// Answers sent from the shelf, answers kept on it, and misses it
        /// was asked to keep, since it was last emptied.
        var hits = 0
        var kept = 0
        var misses = 0
        /// Misses left before a resting (empty) shelf keeps answers again; 0 when not resting.
        var restingMisses = 0
        /// The next rest, in multiples of the misses since the shelf was last emptied.
        var restLength = Shelf.shortestRest

        static let shortestRest = 8
        static let longestRest = 64
        /// Answers kept after which a shelf is judged before it fills.
        static let judgedAfter = 256

        /// Drops every answer, and starts remembering paths anew.
        func empty() {
            entries.forEach { $0.removeAll() }
            bytes = 0
            hits = 0
            kept = 0
            misses = 0
            if let seen {
                seen.removeAll()
            } else {
                seen = SeenPaths()
            }
        }
    }

    /// Bytes counted for an entry besides its body: header fields and bookkeeping.
    static let entryOverhead = 256

    private let shelves = PerThread { Shelf() }
    /// Bytes kept at most, over all shelves; 0 keeps nothing.
    let budget: Int
    /// Bytes kept at most on one thread's shelf.
    private let shelfBudget: Int
    /// The answers kept once for every thread, behind the shelves.
    let shared: SharedAnswers

    init(budget: Int, threads: Int, sharedBudget: Int = 0) {
        self.budget = budget
        self.shelfBudget = budget / max(threads, 1)
        self.shared = SharedAnswers(budget: sharedBudget)
    }

    /// The largest body kept on a shelf.
    var largestBody: Int {
        budget / 16
    }

    /// Whether anything is ever kept: when not, requests are not hashed.
    var keepsAnswers: Bool {
        shelfBudget > 0 || shared.keepsAnswers
    }

    /// What ``lookUp(_:coding:credentials:ifPlain:)`` found.
    enum Lookup {
        /// The answer kept, still up to date.
        case found(Entry)
        /// None, or one out of date: the key to keep the answer under.
        case missed(Key)
        /// This thread's shelf rests (see ``keep(_:for:)``): nothing was
        /// looked up on it. The key, when the request is plain and the shared
        /// answers (``SharedAnswers``) are kept: they are looked up under it.
        case resting(Key?)
        /// The request is not one a kept answer fits, or nothing is kept.
        case skipped

        /// The key of a plain request no shelf answered.
        var key: Key? {
            switch self {
            case .missed(let key): key
            case .resting(let key): key
            case .found, .skipped: nil
            }
        }
    }

    /// The answer kept for `path` in `coding` on this thread's shelf, when
    /// its revision still holds and it may be sent to a request with
    /// `credentials` (``ResponseReuse/admits``). `isPlain` (whether a kept answer fits the
    /// request) is asked only when the shelf does not rest or the shared
    /// answers are kept; otherwise a resting shelf is empty, so its requests
    /// are not hashed either.
    func lookUp(
        _ path: UnsafePointer<CChar>, coding: ContentCoding, credentials: CredentialFields, ifPlain isPlain: () -> Bool
    ) -> Lookup {
        guard keepsAnswers else {
            return .skipped
        }
        let shelf = shelves.current
        guard shelf.restingMisses == 0 else {
            return .resting(shared.keepsAnswers && isPlain() ? Key(path: path, coding: coding) : nil)
        }
        guard isPlain() else {
            return .skipped
        }
        let key = Key(path: path, coding: coding)
        guard let entry = shelf.entries[coding.rawValue].value(for: key.path, hash: key.hash),
            entry.reuse.holds(for: credentials)
        else {
            return .missed(key)
        }
        shelf.hits &+= 1
        return .found(entry)
    }

    /// The key to keep a reusable answer under, after `lookup` missed, when
    /// this thread's shelf keeps it: always until the shelf first fills;
    /// after that, when the path was asked for before since the shelf was
    /// last emptied, or its answer there is out of date. A path asked for
    /// the first time is remembered, and its answer made but not kept. A
    /// resting shelf counts the miss and keeps nothing.
    func admits(_ lookup: Lookup) -> Key? {
        switch lookup {
        case .found, .skipped:
            return nil
        case .resting:
            let shelf = shelves.current
            shelf.restingMisses = max(shelf.restingMisses - 1, 0)
            return nil
        case .missed(let key):
            guard shelfBudget > 0 else {
                return nil
            }
            let shelf = shelves.current
            shelf.misses += 1
            guard let seen = shelf.seen else {
                return key
            }
            let admitted =
                seen.insert(key.hash, key.coding)
                || shelf.entries[key.coding.rawValue].value(for: key.path, hash: key.hash) != nil
            return admitted ? key : nil
        }
    }

    /// Keeps `entry` for `key` on this thread's shelf, in place of the one
    /// kept before. When it does not fit, the shelf is emptied first: O(1)
    /// amortized over the answers kept since, where choosing victims would
    /// cost a scan each time, and the answers still read come back on their
    /// second read. An answer whose revision has moved on stays until then,
    /// or until its path is kept again.
    ///
    /// Unless the shelf thrashes: when the answers kept since it was last
    /// emptied were sent fewer times than they were made (judged when it
    /// fills, and from 256 answers kept on, when fewer than a quarter of
    /// them), the reads are spread over more paths than fit, and refilling
    /// it would only keep more answers read once. It is emptied and then
    /// rests: it keeps nothing for 8 times the misses it took to thrash,
    /// doubling up to 64 times while it keeps thrashing (but not when shared
    /// answers are kept), before it is tried again. It rests empty rather
    /// than full because an answer found among many rarely read is cold in
    /// the processor's caches and saves little, while holding thousands of
    /// them slows everything else
    /// (docs/perf-history/reads-and-pages.md, *Resting*, under *Reads as users
    /// make them, and the compressed row*).
    func keep(_ entry: Entry, for key: Key) {
        guard entry.size <= shelfBudget else {
            return
        }
        let shelf = shelves.current
        let table = shelf.entries[key.coding.rawValue]
        let full = shelf.bytes + entry.size > shelfBudget
        if full || shelf.kept >= Shelf.judgedAfter {
            if shelf.hits < (full ? shelf.kept : shelf.kept / 4) {
                let misses = shelf.misses
                shelf.empty()
                shelf.restingMisses = misses * shelf.restLength
                // Behind shared answers a miss costs little more than a hit
                // (the answer is not made): the rest does not grow, so a shelf
                // comes back soon when the reads narrow to fewer paths.
                shelf.restLength =
                    shared.keepsAnswers ? Shelf.shortestRest : min(shelf.restLength * 2, Shelf.longestRest)
                return
            }
            if full {
                shelf.restLength = Shelf.shortestRest
                shelf.empty()
            }
        }
        let replaced = table.set(entry, for: key.path, hash: key.hash)
        shelf.bytes += entry.size - (replaced?.size ?? 0)
        shelf.kept += 1
    }
}

/// The paths a shelf was asked for since it was last emptied, as a Bloom
/// filter of two bits a path (and coding) in 2^18: 32 KiB, about 4 % false
/// positives at 30,000 paths. A false positive only keeps an answer read once.
final class SeenPaths {
    private static let bitCount = 1 << 18
    private var words = [UInt64](repeating: 0, count: SeenPaths.bitCount / 64)

    /// Remembers `hash` in `coding`; answers whether it was remembered already.
    func insert(_ hash: Int, _ coding: ContentCoding) -> Bool {
        let mixed = UInt64(bitPattern: Int64(hash)) ^ (UInt64(coding.rawValue) &* 0x9E37_79B9_7F4A_7C15)
        let mask = UInt64(Self.bitCount - 1)
        let first = Int(mixed & mask)
        let second = Int((mixed >> 32) & mask)
        let present = bit(first) && bit(second)
        words[first >> 6] |= 1 << UInt64(first & 63)
        words[second >> 6] |= 1 << UInt64(second & 63)
        return present
    }

    func removeAll() {
        for index in words.indices {
            words[index] = 0
        }
    }

    private func bit(_ index: Int) -> Bool {
        words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }
}
