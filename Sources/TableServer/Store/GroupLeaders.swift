import Dispatch
import Foundation
import Synchronization

/// The threads that lead the tables' group commits when the log does not
/// record at once (the journal, the shared database), and the bound on the
/// edits waiting for the log (docs/SCALING.md, "No worker thread waits").
///
/// An edit holds no thread while it waits: it is staged and queued in its
/// table's group commit from the thread it arrives on, counted against the
/// bounds until it is answered (`admit`), and answered through a callback —
/// its connection suspended meanwhile (a `MicroHTTP` `DeferredResponse`).
/// Only a group's leader takes a thread, one of `leadThreads` (`lead`): a
/// frozen log costs at most `leadThreads` threads however many edits wait.
/// Beyond `perTable` edits of one table, or `total` in all, an edit is
/// refused at once: 503 `overloaded` with `Retry-After`, and nothing is made.
final class GroupLeaders: Sendable {
    /// The bounds (docs/SCALING.md).
    struct Limits: Sendable {
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
    /// What the edits wait for, as refusals name it ("the journal", "the database").
    private let log: String
    private let counts = Mutex(Counts())
    private let leads: LeadThreads

    init(limits: Limits = Limits(), waitingFor log: String) {
        self.limits = limits
        self.log = log
        leads = LeadThreads(count: limits.leadThreads, name: "webtableview.lead")
    }

    /// Counts an edit of table `table`, queued in its table's group commit,
    /// against the bounds until `release`; answers the refusal when a bound
    /// is reached.
    func admit(table: String) -> TableServerError? {
        counts.withLock { counts in
            guard !counts.stopping else { return .overloaded("the server is stopping") }
            guard counts.count < limits.total else {
                return .overloaded("\(limits.total) edits wait for \(log) already")
            }
            guard counts.byTable[table, default: 0] < limits.perTable else {
                return .overloaded("\(limits.perTable) edits of \"\(table)\" wait for \(log) already")
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

    /// The lead threads started so far: none before the first lead, never
    /// more than `limits.leadThreads`.
    var threads: Int { leads.started }

    /// The edits admitted and not answered yet: queued in their table's
    /// group commit, or in the commit in flight.
    var waiting: Int { counts.withLock { $0.count } }

    /// Refuses new edits; each lead thread ends once nothing is left for it
    /// (a commit in flight finishes first).
    func stop() {
        counts.withLock { $0.stopping = true }
        leads.stop()
    }
}

/// A fixed number of threads taking jobs in arrival order, started at the
/// first job (a store whose log is never waited for has none).
private final class LeadThreads: Sendable {
    private struct Queue {
        /// The jobs from `head` on wait; a job taken is let go of at once (it
        /// holds its group's edits and answers).
        var jobs: [(@Sendable () -> Void)?] = []
        var head = 0
        var started = false
        var stopped = false
    }

    private let count: Int
    private let name: String
    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)

    init(count: Int, name: String) {
        self.count = count
        self.name = name
    }

    func add(_ job: @escaping @Sendable () -> Void) {
        let (starts, stopped) = queue.withLock { queue in
            queue.jobs.append(job)
            defer { queue.started = true }
            return (!queue.started, queue.stopped)
        }
        if starts {
            for index in 0..<count {
                let thread = Thread { [self] in run() }
                thread.name = "\(name).\(index)"
                thread.start()
            }
        }
        available.signal()
        // Started after `stop` (a group admitted before it): they end too, once it is led.
        if starts && stopped { stop() }
    }

    /// Whether a job waits for a thread.
    var hasWaitingJobs: Bool { queue.withLock { $0.head < $0.jobs.count } }

    /// The threads started: all of them once the first job came.
    var started: Int { queue.withLock { $0.started ? count : 0 } }

    /// Each thread ends once it finds nothing left to do.
    func stop() {
        let started = queue.withLock { queue in
            queue.stopped = true
            return queue.started
        }
        guard started else { return }
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
