import Dispatch
import Foundation
import MicroHTTP
import Synchronization

/// The queue heavy requests run on — imports, snapshot `PUT`s and their
/// diff, large bodies, views of large tables (`RouteWeight`) — apart from
/// the worker threads that answer `/healthz`, reads and small edits
/// (docs/RELIABILITY.md, "Heavy work").
///
/// A heavy request holds no worker thread: its connection is suspended (a
/// `MicroHTTP` `DeferredResponse`) until one of `threads` has run it. At most
/// `threads` run and `waiting` wait; one more is refused at once, 503
/// `heavy-work-busy` with `Retry-After`, and nothing of it is done. The
/// threads run at a lower CPU priority (`nice` 10) than the worker threads,
/// so that on a busy machine the short answers go first.
final class HeavyWork: Sendable {
    /// The bounds (`serve --heavy-threads`, `--heavy-queue`).
    struct Limits: Sendable {
        var threads = 2
        var waiting = 16
    }

    /// What `/metrics` shows of the queue.
    struct Counts: Sendable, Equatable {
        var running = 0
        var waiting = 0
        var refused = 0
    }

    /// A request's answer to make, and where it goes.
    private struct Job {
        let answer: @Sendable () -> HTTPResponse
        let deferral: DeferredResponse
    }

    private struct State {
        var jobs: [Job] = []
        var counts = Counts()
        var stopping = false
        /// Whether the threads are started: at the first heavy request, so
        /// that a server that never gets one (most of the tests') has none.
        var started = false
    }

    let limits: Limits
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    init(limits: Limits = Limits()) {
        precondition(limits.threads >= 1 && limits.waiting >= 0, "at least one heavy thread")
        self.limits = limits
    }

    private func startThreads() {
        for index in 0..<limits.threads {
            let thread = Thread { [self] in
                // Linux keeps a nice value per thread, and `who` 0 is the calling one.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
                work()
            }
            thread.name = "webtableview.heavy.\(index)"
            thread.start()
        }
    }

    /// `answer` run on a heavy thread: a deferred answer, completed with what
    /// `answer` returns; or the 503 refusal at once when the queue is full.
    /// It runs as the requester of now, bound to the same rows
    /// (`BoundRows.carried`): a bound reader's heavy read is still its view.
    func run(_ answer: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        let answer = BoundRows.carried(answer)
        let deferral = DeferredResponse()
        var starts = false
        let refusal = state.withLock { state -> TableServerError? in
            if state.stopping { return .heavyWorkBusy("the server is stopping") }
            let queued = state.counts.running + state.counts.waiting
            guard queued < limits.threads + limits.waiting else {
                state.counts.refused += 1
                return .heavyWorkBusy(
                    "\(limits.threads) heavy requests (imports, snapshots, large bodies, views of large tables) "
                        + "run and \(limits.waiting) wait already")
            }
            state.jobs.append(Job(answer: answer, deferral: deferral))
            state.counts.waiting += 1
            starts = !state.started
            state.started = true
            return nil
        }
        if let refusal { return Respond.problem(refusal) }
        if starts { startThreads() }
        ready.signal()
        return .deferred(deferral)
    }

    /// Running, waiting and refused requests now.
    var counts: Counts { state.withLock { $0.counts } }

    /// Refuses new requests and drops those waiting (the stopping HTTP
    /// server has answered them); each thread ends after its request.
    func stop() {
        state.withLock { state in
            state.stopping = true
            state.counts.waiting = 0
            state.jobs.removeAll()
        }
        for _ in 0..<limits.threads { ready.signal() }
    }

    private func work() {
        while true {
            ready.wait()
            let job = state.withLock { state -> Job? in
                guard !state.stopping, !state.jobs.isEmpty else { return nil }
                state.counts.waiting -= 1
                state.counts.running += 1
                return state.jobs.removeFirst()
            }
            guard let job else {
                if state.withLock({ $0.stopping }) { return }
                continue
            }
            let deferral = job.deferral
            let answer = job.answer
            _ = consume job
            // The request (its body) and the answer are let go of before the
            // answer is sent, so that a niced thread slow to come back never
            // holds them after the client has its answer.
            let response = answer()
            _ = consume answer
            state.withLock { $0.counts.running -= 1 }
            deferral.complete(consume response)
        }
    }
}
