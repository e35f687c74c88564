import Dispatch
import Foundation
import Synchronization

/// The threads that run the edits which join a table's group commit (the
/// shared database; docs/SCALING.md, "No worker thread waits"), and the bound
/// on edits waiting for them.
///
/// A fixed number of threads take the edits in arrival order; an edit waiting
/// for a thread holds none — its connection is suspended (a `MicroHTTP`
/// `DeferredResponse`). So a frozen database costs `threads` threads however
/// many edits wait. Beyond `perTable` edits of one table, or `total` in all,
/// waiting or running, an edit is refused at once: 503 `overloaded` with
/// `Retry-After`, and nothing is made.
final class EditRunner: Sendable {
    /// The bounds (docs/SCALING.md).
    struct Limits: Sendable {
        var threads = 32
        var perTable = 1_000
        var total = 4_000
    }

    private struct Queue {
        var jobs: [(table: String, job: @Sendable () -> Void)] = []
        var head = 0
        var byTable: [String: Int] = [:]
        var count = 0
        var stopping = false
    }

    let limits: Limits
    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)

    init(limits: Limits = Limits()) {
        self.limits = limits
        for index in 0..<limits.threads {
            let thread = Thread { [self] in run() }
            thread.name = "webtableview.edit.\(index)"
            thread.start()
        }
    }

    /// Queues `job`, an edit of table `table`, for the next free thread;
    /// answers the refusal when a bound is reached (the job is then dropped).
    func submit(table: String, _ job: @escaping @Sendable () -> Void) -> TableServerError? {
        let refusal = queue.withLock { queue -> TableServerError? in
            guard !queue.stopping else { return .overloaded("the server is stopping") }
            guard queue.count < limits.total else {
                return .overloaded("\(limits.total) edits wait for the database already")
            }
            guard queue.byTable[table, default: 0] < limits.perTable else {
                return .overloaded("\(limits.perTable) edits of \"\(table)\" wait for the database already")
            }
            queue.count += 1
            queue.byTable[table, default: 0] += 1
            queue.jobs.append((table, job))
            return nil
        }
        if refusal == nil { available.signal() }
        return refusal
    }

    /// The edits waiting for a thread or running on one.
    var waiting: Int { queue.withLock { $0.count } }

    /// Refuses new edits; each thread ends once nothing is left for it (an
    /// edit still waiting for the database keeps its thread until it is done).
    func stop() {
        queue.withLock { $0.stopping = true }
        for _ in 0..<limits.threads { available.signal() }
    }

    private func run() {
        while true {
            available.wait()
            let next = queue.withLock { queue -> (table: String, job: @Sendable () -> Void)? in
                guard queue.head < queue.jobs.count else { return nil }
                let next = queue.jobs[queue.head]
                queue.head += 1
                if queue.head > 1_024 && queue.head * 2 > queue.jobs.count {
                    queue.jobs.removeFirst(queue.head)
                    queue.head = 0
                }
                return next
            }
            guard let next else { return }
            next.job()
            queue.withLock { queue in
                queue.count -= 1
                let left = queue.byTable[next.table, default: 1] - 1
                queue.byTable[next.table] = left > 0 ? left : nil
            }
        }
    }
}
