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

    /// One worker thread's answers. Only that thread ever touches it:
    /// ``PerThread`` hands each thread its own, and no shelf is read through
    /// `all`. So it needs no lock.
    private final class Shelf: @unchecked Sendable {
        /// One table per ``ContentCoding``, by its raw value: each coding's
        /// answer is kept compressed, with its own entity tag.
        let entries = ContentCoding.allCases.map { _ in AnswerTable<Entry>() }
        var bytes = 0
    }

    /// Bytes counted for an entry besides its body: header fields and bookkeeping.
    static let entryOverhead = 256

    private let shelves = PerThread { Shelf() }
    /// Bytes kept at most, over all shelves; 0 keeps nothing.
    let budget: Int
    /// Bytes kept at most on one thread's shelf.
    private let shelfBudget: Int

    init(budget: Int, threads: Int) {
        self.budget = budget
        self.shelfBudget = budget / max(threads, 1)
    }

    /// The largest body kept.
    var largestBody: Int {
        budget / 16
    }

    /// The answer kept for `path` in `coding` on this thread's shelf, when
    /// its revision still holds.
    func entry(for path: UnsafePointer<CChar>, coding: ContentCoding) -> Entry? {
        let entry = shelves.current.entries[coding.rawValue].value(for: Self.bytes(of: path))
        return entry?.reuse.holds == true ? entry : nil
    }

    /// Keeps `entry` for `path` in `coding` on this thread's shelf, in place of the one
    /// kept before. When it does not fit, the shelf is emptied first: O(1)
    /// amortized over the answers kept since, where choosing victims would
    /// cost a scan each time, and the answers still read come back on their
    /// next read. An answer whose revision has moved on stays until then, or
    /// until its path is kept again.
    func keep(_ entry: Entry, for path: UnsafePointer<CChar>, coding: ContentCoding) {
        guard entry.size <= shelfBudget else {
            return
        }
        let shelf = shelves.current
        if shelf.bytes + entry.size > shelfBudget {
            shelf.entries.forEach { $0.removeAll() }
            shelf.bytes = 0
        }
        let replaced = shelf.entries[coding.rawValue].set(entry, for: Self.bytes(of: path))
        shelf.bytes += entry.size - (replaced?.size ?? 0)
    }

    private static func bytes(of path: UnsafePointer<CChar>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: path, count: strlen(path))
    }
}
