import Dispatch
import Foundation
import Synchronization

/// The threads that lead the tables' group commits and run the edits that
/// may wait for the shared database (docs/SCALING.md, "No worker thread
/// waits"), and the bound on edits waiting for it.
///
/// An edit holds no thread while it waits for a thread — its connection is
/// suspended (a `MicroHTTP` `DeferredResponse`). A change of rows or sections
/// is queued in its table's group commit from the worker thread and holds no
/// thread until it is answered either (`admit`); only its group's leader takes
/// one of the `leadThreads` (`lead`). Any other edit waits here for one of the
/// `threads`, on which it runs and waits (`submit`). Leads have threads of
/// their own: an edit waiting on its thread for a group led after it never
/// holds the thread that group needs. So a frozen database costs at most
/// `threads + leadThreads` threads however many edits wait. Beyond `perTable`
/// edits of one table, or `total` in all, waiting or running, an edit is
/// refused at once: 503 `overloaded` with `Retry-After`, and nothing is made.
final class EditRunner: Sendable {
    /// The bounds (docs/SCALING.md).
    struct Limits: Sendable {
        var threads = 32
        var leadThreads = 16
        var perTable = 1_000
        var total = 4_000
    }

    private struct Counts {
        var byTable: [String: Int] = [:]
        var count = 0
        var stopping = false
    }

    let limits: Limits
    private let counts = Mutex(Counts())
    private let edits: JobThreads
    private let leads: JobThreads

    init(limits: Limits = Limits()) {
        self.limits = limits
        edits = JobThreads(count: limits.threads, name: "webtableview.edit")
        leads = JobThreads(count: limits.leadThreads, name: "webtableview.lead")
    }

    /// Queues `job`, an edit of table `table`, for the next free thread, where
    /// it runs as the requester of now, bound to the same rows
    /// (`BoundRows.carried`); answers the refusal when a bound is reached (the
    /// job is then dropped).
    func submit(table: String, _ job: @escaping @Sendable () -> Void) -> TableServerError? {
        if let refusal = admit(table: table) { return refusal }
        let job = BoundRows.carried(job)
        edits.add { [self] in
            job()
            release(table: table)
        }
        return nil
    }

    /// Counts an edit of table `table` that waits on no thread, queued in its
    /// table's group commit, against the bounds until `release`; answers the
    /// refusal when a bound is reached.
    func admit(table: String) -> TableServerError? {
        counts.withLock { counts in
            guard !counts.stopping else { return .overloaded("the server is stopping") }
            guard counts.count < limits.total else {
                return .overloaded("\(limits.total) edits wait for the database already")
            }
            guard counts.byTable[table, default: 0] < limits.perTable else {
                return .overloaded("\(limits.perTable) edits of \"\(table)\" wait for the database already")
            }
            counts.count += 1
            counts.byTable[table, default: 0] += 1
            return nil
        }
    }

    /// An edit counted by `admit` was answered.
    func release(table: String) {
        counts.withLock { counts in
            counts.count -= 1
            let left = counts.byTable[table, default: 1] - 1
            counts.byTable[table] = left > 0 ? left : nil
        }
    }

    /// Runs `job`, the commit of a group whose edits were admitted already,
    /// on the next free lead thread.
    func lead(_ job: @escaping @Sendable () -> Void) {
        leads.add(job)
    }

    /// Whether a group's lead waits for a lead thread.
    var leadsWait: Bool { leads.hasWaitingJobs }

    /// The edits waiting for the database: for a thread, on one, or queued
    /// in their table's group commit.
    var waiting: Int { counts.withLock { $0.count } }

    /// Refuses new edits; each thread ends once nothing is left for it (an
    /// edit still waiting for the database keeps its thread until it is done).
    func stop() {
        counts.withLock { $0.stopping = true }
        edits.stop()
        leads.stop()
    }
}

/// A fixed number of threads taking jobs in arrival order.
private final class JobThreads: Sendable {
    private struct Queue {
        /// The jobs from `head` on wait; a job taken is let go of at once (it
        /// holds its edit's request and answer).
        var jobs: [(@Sendable () -> Void)?] = []
        var head = 0
    }

    private let count: Int
    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)

    init(count: Int, name: String) {
        self.count = count
        for index in 0..<count {
            let thread = Thread { [self] in run() }
            thread.name = "\(name).\(index)"
            thread.start()
        }
    }

    func add(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.jobs.append(job) }
        available.signal()
    }

    /// Whether a job waits for a thread.
    var hasWaitingJobs: Bool { queue.withLock { $0.head < $0.jobs.count } }

    /// Each thread ends once it finds nothing left to do.
    func stop() {
        for _ in 0..<count { available.signal() }
    }

    private func run() {
        while true {
            available.wait()
            let next = queue.withLock { queue -> (@Sendable () -> Void)? in
                guard queue.head < queue.jobs.count else { return nil }
                let next = queue.jobs[queue.head]
                queue.jobs[queue.head] = nil
                queue.head += 1
                if queue.head == queue.jobs.count {
                    queue.jobs.removeAll(keepingCapacity: true)
                    queue.head = 0
                } else if queue.head > 1_024 && queue.head * 2 > queue.jobs.count {
                    queue.jobs.removeFirst(queue.head)
                    queue.head = 0
                }
                return next
            }
            guard let next else { return }
            next()
        }
    }
}
