import Dispatch
import Synchronization

/// Reads waiting for a table to reach a version (`Min-Version`, docs/API.md
/// "Replicas"), each answered later: woken when the table moves to that
/// version or past it (`moved`), or, past its deadline, told it was not. A
/// waiting read holds no thread; its wake-up runs on a Dispatch thread, after
/// the table's lock is released.
final class VersionWaiters: Sendable {
    private final class Waiter: Sendable {
        let table: String
        let version: Int
        let wake: @Sendable (_ reached: Bool) -> Void
        private let woken = Atomic<Bool>(false)

        init(table: String, version: Int, wake: @escaping @Sendable (Bool) -> Void) {
            self.table = table
            self.version = version
            self.wake = wake
        }

        /// Wakes it on a Dispatch thread, once.
        func fire(_ reached: Bool) {
            guard !woken.exchange(true, ordering: .acquiringAndReleasing) else { return }
            DispatchQueue.global().async { self.wake(reached) }
        }
    }

    private let waiting = Mutex<[String: [Waiter]]>([:])
    /// The tables being looked up for waiting reads (`lookUpOnce`).
    private let lookingUp = Mutex<Set<String>>([])
    private let lookUps = DispatchQueue(label: "webtableview.lookups")

    /// Calls `wake(true)` once table `table` reaches `version` (as `current`
    /// says, asked after the waiter is registered, so no move is missed), or
    /// `wake(false)` after `limit`.
    func wait(
        for table: String, atLeast version: Int, upTo limit: Duration, current: () -> Int?,
        _ wake: @escaping @Sendable (_ reached: Bool) -> Void
    ) {
        let waiter = Waiter(table: table, version: version, wake: wake)
        waiting.withLock { $0[table, default: []].append(waiter) }
        if let now = current(), now >= version {
            take(waiter)
            waiter.fire(true)
            return
        }
        let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in
            take(waiter)
            waiter.fire(false)
        }
    }

    /// Table `table` is at `version` now: wakes the reads waiting for it.
    func moved(_ table: String, to version: Int) {
        let ripe = waiting.withLock { waiting -> [Waiter] in
            guard let waiters = waiting[table] else { return [] }
            let ripe = waiters.filter { $0.version <= version }
            guard !ripe.isEmpty else { return [] }
            let left = waiters.filter { $0.version > version }
            waiting[table] = left.isEmpty ? nil : left
            return ripe
        }
        for waiter in ripe { waiter.fire(true) }
    }

    /// Runs `lookUp` (asking the log for table `table`) on the one look-up
    /// thread, unless a look-up of that table is queued or running already:
    /// any number of waiting reads cost one look-up, and no more than one
    /// thread.
    func lookUpOnce(_ table: String, _ lookUp: @escaping @Sendable () -> Void) {
        guard lookingUp.withLock({ $0.insert(table).inserted }) else { return }
        lookUps.async { [self] in
            lookUp()
            lookingUp.withLock { _ = $0.remove(table) }
        }
    }

    /// Runs `body`, which asks the log, on the one look-up thread, after
    /// whatever is queued there, as the requester of now, bound to the same
    /// rows (`BoundRows.carried`): an edit of a table not here, or a key a
    /// shared log may hold, waits there for the log on no thread of its own.
    func lookUp(_ body: @escaping @Sendable () -> Void) {
        lookUps.async(execute: BoundRows.carried(body))
    }

    /// How many reads wait for table `table` now.
    func count(for table: String) -> Int {
        waiting.withLock { $0[table]?.count ?? 0 }
    }

    private func take(_ waiter: Waiter) {
        waiting.withLock { waiting in
            guard let waiters = waiting[waiter.table] else { return }
            let left = waiters.filter { $0 !== waiter }
            waiting[waiter.table] = left.isEmpty ? nil : left
        }
    }
}
