import MicroHTTP
import Synchronization
import TableAccess

/// The answer of one edit a route handed to the store (a change, or a
/// table's creation), which calls back once with its outcome: before the handler returns (no log, or refused at once)
/// or later, once its group is committed (docs/ARCHITECTURE.md, "The edit
/// pipeline").
private final class EditAnswer<Value: Sendable>: Sendable {
    typealias Outcome = Result<Value, any Error>

    private enum State {
        case waiting
        case arrived(Outcome)
        case deferred(DeferredResponse, answer: @Sendable (Outcome) -> HTTPResponse)
    }

    /// How the handler answers: now, with the outcome, or later.
    enum Answer {
        case now(Outcome)
        case later(DeferredResponse)
    }

    private let state = Mutex(State.waiting)

    /// The store's callback: the outcome is kept for the handler, or its
    /// deferred answer completed when the handler returned already.
    func arrived(_ outcome: Outcome) {
        let deferred = state.withLock { state -> (DeferredResponse, @Sendable (Outcome) -> HTTPResponse)? in
            guard case .deferred(let deferral, let answer) = state else {
                state = .arrived(outcome)
                return nil
            }
            return (deferral, answer)
        }
        if let (deferral, answer) = deferred { deferral.complete(answer(outcome)) }
    }

    /// When the handler returns: the outcome, when it arrived already; else a
    /// deferred answer, completed with `answer` of the outcome once it arrives.
    func handlerReturns(answer: @escaping @Sendable (Outcome) -> HTTPResponse) -> Answer {
        state.withLock { state in
            if case .arrived(let outcome) = state { return .now(outcome) }
            let deferral = DeferredResponse()
            state = .deferred(deferral, answer: answer)
            return .later(deferral)
        }
    }
}

extension RouteCollection {
    /// Answers `request` with what `respond` makes of the outcome of the edit
    /// `start` hands the store (passing it the store's callback). When the
    /// store answered before `start` returned, `respond`'s answer is returned
    /// (and what it throws, thrown, for the route to answer); otherwise the
    /// answer is deferred, and completed as the route would have answered —
    /// no thread waits for the edit's group commit.
    func answering<Value: Sendable>(
        _ request: HTTPRequest,
        _ start: (_ done: @escaping @Sendable (Result<Value, any Error>) -> Void) -> Void,
        respond: @escaping @Sendable (Result<Value, any Error>) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        let answer = EditAnswer<Value>()
        start(answer.arrived)
        let life = store.life
        let logger = context.logger
        let ifMatch = request.ifMatch
        let requester = Requester.current
        let rows = BoundRows.current
        let later: @Sendable (Result<Value, any Error>) -> HTTPResponse = { outcome in
            // As the requester of now, bound to the same rows: task locals do not cross threads.
            Requester.$current.withValue(requester) {
                BoundRows.$current.withValue(rows) {
                    Respond.edit(logger: logger) {
                        try RouteBuilder.answer(in: life, ifMatch: ifMatch) { try respond(outcome) }
                    }
                }
            }
        }
        switch answer.handlerReturns(answer: later) {
        case .now(let outcome): return try respond(outcome)
        case .later(let deferral): return .deferred(deferral)
        }
    }
}
