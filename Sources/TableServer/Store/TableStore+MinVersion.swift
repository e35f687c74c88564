import Dispatch

/// The `Min-Version` request header: a version number (docs/API.md, "Replicas").
enum MinVersion {
    static func parse(_ text: String) throws(TableServerError) -> Int {
        let trimmed = text.trimmingSpaces()
        guard let version = Int(trimmed), version >= 0, trimmed.utf8.allSatisfy(isASCIIDigit) else {
            throw TableServerError.badRequest(
                type: "bad-header",
                detail: "Min-Version must be a version number (a whole number from 0), not \"\(text)\"")
        }
        return version
    }
}

extension TableStore {
    /// Whether table `id` is here at `version` or later.
    func holds(_ id: String, atLeast version: Int) -> Bool {
        guard let handle = try? handle(id) else { return false }
        return handle.revision.current >= version
    }

    /// Calls `wake(true)` once table `id` is here at `version` or later, or
    /// `wake(false)` after `limit`, without holding a thread meanwhile. A
    /// table not here yet (created through another replica), or behind, is
    /// also asked of the log (`TableLog.lookUp`, on the store's one look-up
    /// thread, once for all the reads waiting for that table), so that a
    /// table just created elsewhere is found at once.
    func whenHeld(
        _ id: String, atLeast version: Int, upTo limit: Duration, _ wake: @escaping @Sendable (_ reached: Bool) -> Void
    ) {
        versionWaiters.wait(for: id, atLeast: version, upTo: limit, current: { [self] in currentVersion(id) }, wake)
        guard let log, !holds(id, atLeast: version) else { return }
        versionWaiters.lookUpOnce(id) { _ = try? log.lookUp(id) }
    }

    /// The table's version as its lock holds it, not its `revision`: a change
    /// wakes the waiting reads (`VersionWaiters.moved`) under the lock, and
    /// the revision follows only as the lock is let go, so a read that asked
    /// the revision in between would wait for a wake-up already gone.
    private func currentVersion(_ id: String) -> Int? {
        (try? handle(id))?.version
    }
}
