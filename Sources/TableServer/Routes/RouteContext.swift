import Logging
import MicroHTTP
import TableAccess
import TableModel
import TableRendering

/// What every route needs: the store, the renderer, the limits, the edit token,
/// and the logger internal errors are written to.
struct RouteContext: Sendable {
    let store: TableStore
    let renderer: TableRenderer
    let limits: ModelLimits
    let token: EditToken?
    let metrics: MetricsSource
    let logger: Logger
    /// Origins allowed to edit from another origin (see `CrossSite`).
    let corsOrigins: Set<String>
    /// Whether this server can take edits now (`/readyz`): false while the
    /// database replicas share is out of reach.
    let readiness: @Sendable () -> Bool
    /// The longest a read waits for the version its `Min-Version` header asks for.
    let minVersionWait: Duration
    /// The access policy every route is checked against (`AccessControl`);
    /// nil without one, when reads are open and the edit token guards edits.
    let access: AccessControl?
    /// The queue heavy requests run on, apart from the worker threads.
    let heavyWork: HeavyWork
}

/// One group of routes of docs/API.md, as Hummingbird's route collections:
/// `register(on:)` is its route table (method, pattern, handler name), and each
/// route is answered by a named method of the group.
protocol RouteCollection: Sendable {
    /// What the handlers work with.
    var context: RouteContext { get }
    func register(on routes: inout RouteBuilder)
}

extension RouteCollection {
    var store: TableStore { context.store }
    var limits: ModelLimits { context.limits }
}

/// Registers routes whose handlers may throw a `TableServerError`, answered as a problem.
struct RouteBuilder {
    var router: Router
    let context: RouteContext

    /// Registers every route of `collection`.
    mutating func add(_ collection: some RouteCollection) {
        collection.register(on: &self)
    }

    /// Adds `handler` to the router, behind the access policy when there is one.
    private mutating func register(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler) {
        router.add(method, pattern, context.access?.guarding(method, pattern, handler) ?? handler)
    }

    /// A route answered as its handler answers: no `Min-Version`, no token,
    /// no problem made of a thrown error (pages, files, health and metrics).
    mutating func route(
        _ method: HTTPMethod,
        _ pattern: String,
        weight: RouteWeight = .light,
        _ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        let life = context.store.life
        register(method, pattern, weighed(weight) { request in life.tagging(handler(life.reading(request))) })
    }

    /// `answer`, run on the heavy-work queue for a request `weight` finds
    /// heavy (docs/RELIABILITY.md, "Heavy work"), on the worker thread otherwise.
    private func weighed(
        _ weight: RouteWeight,
        _ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) -> @Sendable (HTTPRequest) -> HTTPResponse {
        guard weight != .light else { return answer }
        let store = context.store
        let heavyWork = context.heavyWork
        return { request in
            guard weight.isHeavy(request, store: store) else { return answer(request) }
            return heavyWork.run { answer(request) }
        }
    }

    /// `handler` in the server's life (`ServerLife`): it reads the request's
    /// entity tags without the life, and its answer's tag gets it, a refusal's
    /// (`412` names the current version) and a repeated edit's too. Every
    /// route's handler is, so that each tag a client holds names its life.
    private func inLife(
        _ handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) -> @Sendable (HTTPRequest) throws -> HTTPResponse {
        let life = context.store.life
        return { request in
            try Self.answer(in: life, ifMatch: request.ifMatch) { try handler(life.reading(request)) }
        }
    }

    /// What `body` answers in `life` (`inLife`): a thrown `TableServerError`
    /// as its problem — a `412` naming the tag the client sent (`ifMatch`)
    /// and the current version as this life tags it — and a repeated edit as
    /// its first answer; any other error is thrown.
    static func answer(
        in life: ServerLife, ifMatch: String?, _ body: () throws -> HTTPResponse
    ) throws -> HTTPResponse {
        do {
            return life.tagging(try body())
        } catch TableServerError.versionMismatch(_, let current, _) {
            // Named as the client sent its tag, and as this life tags the version.
            let refusal = TableServerError.versionMismatch(
                expected: ifMatch ?? "", current: current, currentTag: life.tag(current))
            return life.tagging(Respond.problem(refusal))
        } catch let error as TableServerError {
            return life.tagging(Respond.problem(error))
        } catch let repeated as IdempotentRepeat {
            return life.tagging(repeated.answer.response)
        }
    }

    /// A read: open to everyone. With a `Min-Version: N` header, a read of a
    /// table is answered once this server holds the table at version N or
    /// later (read your writes across replicas) — at once when it does, else
    /// later (a deferred answer: no thread waits), or `not-caught-up` after
    /// `minVersionWait`.
    mutating func read(
        _ pattern: String,
        weight: RouteWeight = .byRequest,
        _ handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) {
        let logger = context.logger
        let inLife = inLife(handler)
        let handler = weighed(weight) { request in Respond.catching(logger: logger) { try inLife(request) } }
        let store = context.store
        let wait = context.minVersionWait
        register(.GET, pattern) { request in
            guard let wanted = request.headers["Min-Version"], request.parameters["t"] != nil else {
                return handler(request)
            }
            let id = request.tableID
            let version: Int
            do throws(TableServerError) {
                version = try MinVersion.parse(wanted)
            } catch {
                return Respond.problem(error)
            }
            guard !store.holds(id, atLeast: version) else { return handler(request) }
            let deferral = DeferredResponse()
            let answer = BoundRows.carried { handler(request) }
            store.whenHeld(id, atLeast: version, upTo: wait) { reached in
                // A heavy read's answer is deferred again, to the heavy-work queue.
                deferral.complete(reached ? answer() : Respond.problem(.notCaughtUp(table: id, version: version)))
            }
            return .deferred(deferral)
        }
    }

    /// An edit: refused from another site unless its origin is allowed, and
    /// needs the token when one is configured. Its handler hands the request's
    /// `Idempotency-Key` to the store; a repeat is answered with the first
    /// answer (`IdempotentRepeat`), unless the handler answers it itself.
    /// It runs on the worker thread — or, when `weight` finds it heavy, on the
    /// heavy-work queue — and returns once its edit is staged: with a log
    /// that does not record at once, its answer is deferred until its group
    /// is committed (`RouteCollection.answering`; docs/ARCHITECTURE.md, "The
    /// edit pipeline").
    mutating func edit(
        _ method: HTTPMethod,
        _ pattern: String,
        weight: RouteWeight = .byRequest,
        _ handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) {
        let edit = inLife(handler)
        let token = context.token
        let logger = context.logger
        let corsOrigins = context.corsOrigins
        let store = context.store
        let heavyWork = context.heavyWork
        let answer: @Sendable (HTTPRequest) -> HTTPResponse = { request in
            // A heavy edit is staged on the heavy-work queue, never on the
            // worker thread, which small edits keep to themselves.
            if weight.isHeavy(request, store: store) {
                return heavyWork.run { Respond.edit(logger: logger) { try edit(request) } }
            }
            return Respond.edit(logger: logger) { try edit(request) }
        }
        register(method, pattern) { request in
            if CrossSite.isRefused(request, corsOrigins: corsOrigins) {
                return CrossSite.refusal()
            }
            guard let token else { return answer(request) }
            guard token.authorizes(request.headers["Authorization"]) else { return EditToken.challenge() }
            // Without a policy the edit token is the one requester known by
            // name: its changes record it (docs/ACCESS.md, "Audit").
            return Requester.$current.withValue(.editToken) { answer(request) }
        }
    }

    /// A change of a table's rows or sections (`RouteCollection.change`): an
    /// edit weighed by its request.
    mutating func change(
        _ method: HTTPMethod,
        _ pattern: String,
        _ handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) {
        edit(method, pattern, weight: .byRequest, handler)
    }

    /// A change by index path: refused (409, nothing changed) when sent with a
    /// view's parameters, whose index paths are not the table's.
    mutating func indexEdit(
        _ method: HTTPMethod,
        _ pattern: String,
        _ handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) {
        change(method, pattern) { request in
            if request.hasViewParameters {
                throw TableServerError.indexEditInView(table: request.tableID)
            }
            return try handler(request)
        }
    }
}
