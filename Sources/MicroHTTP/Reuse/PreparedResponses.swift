import CMicroHTTPD
import Synchronization

/// Reusable GET answers (see ``ResponseReuse``) kept as ready libmicrohttpd
/// responses, by path. Sending one again costs one lookup and one atomic load:
/// no routing, no handler, no copy of the body or of its header fields.
///
/// Each worker thread keeps its own shelf (``PerThread``), so answering from
/// it contends for nothing another core holds; the price is that each thread
/// makes its own copy of an answer, once per revision. The shelves share the
/// budget: each holds at most `budget / threads` bytes (bodies and a fixed
/// overhead each), and a body larger than a sixteenth of the budget is never
/// kept. An answer whose revision has moved on is dropped when it is next
/// looked up, or to make room.
final class PreparedResponses: Sendable {
    /// One kept answer. libmicrohttpd responses are reference counted under
    /// their own lock and never changed once made, so many connections on
    /// many threads may send one at once; the last to finish frees it.
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

    private final class Shelf: Sendable {
        let contents = Mutex(Contents())
    }

    private struct Contents {
        var entries: [String: Entry] = [:]
        var bytes = 0

        mutating func remove(_ path: String) {
            if let entry = entries.removeValue(forKey: path) {
                bytes -= entry.size
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

    init(budget: Int, threads: Int) {
        self.budget = budget
        self.shelfBudget = budget / max(threads, 1)
    }

    /// The largest body kept.
    var largestBody: Int {
        budget / 16
    }

    /// The answer kept for `path` on this thread's shelf, when its revision still holds.
    func entry(for path: String) -> Entry? {
        shelves.current.contents.withLock { shelf in
            guard let entry = shelf.entries[path] else {
                return nil
            }
            if entry.reuse.holds {
                return entry
            }
            shelf.remove(path)
            return nil
        }
    }

    /// Keeps `entry` for `path` on this thread's shelf. When it does not fit, the shelf is emptied
    /// first: O(1) amortized over the answers kept since, where choosing
    /// victims would cost a scan each time, and the answers still read come
    /// back on their next read.
    func keep(_ entry: Entry, for path: String) {
        guard entry.size <= shelfBudget else {
            return
        }
        shelves.current.contents.withLock { shelf in
            shelf.remove(path)
            if shelf.bytes + entry.size > shelfBudget {
                shelf.entries.removeAll(keepingCapacity: true)
                shelf.bytes = 0
            }
            shelf.entries[path] = entry
            shelf.bytes += entry.size
        }
    }
}
