import CMicroHTTPD
import Synchronization

/// Reusable GET answers (see ``ResponseReuse``) kept as ready libmicrohttpd
/// responses, by path. Sending one again costs one lookup and one atomic load:
/// no routing, no handler, no copy of the body or of its header fields.
///
/// The shelf holds at most `budget` bytes (bodies and a fixed overhead each); a
/// body larger than a sixteenth of it is never kept. An answer whose revision
/// has moved on is dropped when it is next looked up, or to make room.
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

    private struct Shelf {
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

    private let shelf = Mutex(Shelf())
    /// Bytes of bodies kept at most; 0 keeps nothing.
    let budget: Int

    init(budget: Int) {
        self.budget = budget
    }

    /// The largest body kept.
    var largestBody: Int {
        budget / 16
    }

    /// The answer kept for `path`, when its revision still holds.
    func entry(for path: String) -> Entry? {
        shelf.withLock { shelf in
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

    /// Keeps `entry` for `path`. When it does not fit, the shelf is emptied
    /// first: O(1) amortized over the answers kept since, where choosing
    /// victims would cost a scan each time, and the answers still read come
    /// back on their next read.
    func keep(_ entry: Entry, for path: String) {
        guard entry.size <= budget else {
            return
        }
        shelf.withLock { shelf in
            shelf.remove(path)
            if shelf.bytes + entry.size > budget {
                shelf.entries.removeAll(keepingCapacity: true)
                shelf.bytes = 0
            }
            shelf.entries[path] = entry
            shelf.bytes += entry.size
        }
    }
}
