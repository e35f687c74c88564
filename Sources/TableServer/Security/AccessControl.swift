import MicroHTTP
import TableAccess
import TableModel

/// The one place a policy is enforced (docs/ACCESS.md): `RouteBuilder`
/// wraps every route's handler in ``guarding(_:_:_:)`` when the server has a
/// policy, and the handler runs only for a requester with the right its
/// route needs (``RouteRequirement``), bound as `Requester.current`; its
/// answer is marked as that requester's for caches (``PrivateAnswer``).
///
/// A request's requester: the edit token (admin of every table), a bearer
/// JWT the verifier accepts (``TokenVerifying``), or without `Authorization`
/// a share link's cookie the signer accepts (``ShareLinkSigning``), else anonymous. A
/// token verified before is looked up at once, and refused at once after it
/// expires; a new one is verified off the worker thread and the request
/// answered later (`DeferredResponse`).
struct AccessControl: Sendable {
    let policy: AccessPolicy
    let verifier: (any TokenVerifying)?
    let editToken: EditToken?
    /// Verifies share links' cookies; nil when the server mints none.
    let shareLinks: (any ShareLinkSigning)?
    /// The tables, to find whether a row is in a requester's bound view.
    let store: TableStore
    /// The rules of tables' own `access`, read once per value (`TableOwnAccess.swift`).
    let ownRules = OwnAccessRules()

    /// Whose request it is, or why its credential is refused.
    enum Resolution {
        case known(Requester)
        /// A JWT not verified yet.
        case unverified(String)
        case refused(String)
    }

    func resolve(_ request: HTTPRequest) -> Resolution {
        resolve(authorization: request.headers["Authorization"], cookie: request.headers["Cookie"])
    }

    /// Whose request it is, by its `Authorization` and `Cookie` fields.
    func resolve(authorization: String?, cookie: String?) -> Resolution {
        guard let authorization else { return .known(shared(cookie: cookie)) }
        if let editToken, editToken.authorizes(authorization) { return .known(.editToken) }
        guard let bearer = BearerScheme.token(of: authorization) else {
            return .refused("the Authorization header is not Bearer <token>")
        }
        guard let verifier else { return .refused("the bearer token is not this server's edit token") }
        let token = String(bearer)
        if let claims = verifier.verifiedClaims(of: token) { return .known(.bearer(claims)) }
        if let refusal = verifier.quickRefusal(of: token) { return .refused(refusal.reason) }
        return .unverified(token)
    }

    /// The share link's requester when the request carries a valid share
    /// cookie; anonymous for none, and for one expired or not valid.
    private func shared(cookie: String?) -> Requester {
        guard let shareLinks, let key = ShareCookie.key(inField: cookie),
            case .success(let grant) = shareLinks.grant(ofKey: key)
        else { return .anonymous }
        return .share(grant)
    }

    /// Whether a request carries a credential: `Authorization`, or a share
    /// link's cookie. Its answers are marked so (``PrivateAnswer``), and kept
    /// ones go only to requests that carry one too.
    static func carriesCredential(authorization: String?, cookie: String?) -> Bool {
        authorization != nil || ShareCookie.key(inField: cookie) != nil
    }

    /// `handler`, answered only for requesters with the right the route of
    /// `method` and `pattern` needs.
    func guarding(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler) -> HTTPHandler {
        let requirement = RouteRequirement(method: method, pattern: pattern)
        guard requirement != .open else { return handler }
        return { request in
            let response =
                switch resolve(request) {
                case .known(let requester): answer(request, pattern, for: requester, requirement, handler)
                case .refused(let reason): AccessRefusal.invalidToken(reason)
                case .unverified(let token): verifyThenAnswer(request, pattern, token: token, requirement, handler)
                }
            let credential = Self.carriesCredential(
                authorization: request.headers["Authorization"], cookie: request.headers["Cookie"])
            return PrivateAnswer.marked(response, credential: credential)
        }
    }

    /// Verifies `token` in a task, then answers as for a known requester.
    private func verifyThenAnswer(
        _ request: HTTPRequest, _ pattern: String, token: String, _ requirement: RouteRequirement,
        _ handler: @escaping HTTPHandler
    ) -> HTTPResponse {
        guard let verifier else { return AccessRefusal.invalidToken("no key verifies bearer tokens") }
        let deferral = DeferredResponse()
        Task {
            let response =
                switch await verifier.verify(token) {
                case .success(let claims): answer(request, pattern, for: .bearer(claims), requirement, handler)
                case .failure(let refusal): AccessRefusal.invalidToken(refusal.reason)
                }
            if let later = response.deferral {
                later.onCompletion { deferral.complete($0) }
            } else {
                deferral.complete(response)
            }
        }
        return .deferred(deferral)
    }

    private func answer(
        _ request: HTTPRequest, _ pattern: String, for requester: Requester, _ requirement: RouteRequirement,
        _ handler: @escaping HTTPHandler
    ) -> HTTPResponse {
        switch requirement {
        case .open, .listing:
            break
        case .operatorOnly:
            guard policy.isOperator(requester) else { return AccessRefusal.notOperator(requester) }
        case .table(let needed):
            let table = request.parameters["t"] ?? ""
            let grant = grant(of: requester, on: table)
            if let refusal = refusal(of: requester, grant, needing: needed, on: table, named: table) { return refusal }
            if let rows = grant?.rows {
                if let refusal = boundRefusal(request, pattern, needing: needed, rows: rows, on: table) {
                    return refusal
                }
                let response = answer(request, for: requester, bound: rows, keptFor: nil, handler)
                return needed == .read ? response : response.whenGiven(BoundEdit.versionOnly)
            }
            // What a read shows may depend on the requester's right (an admin
            // sees the table's rules), and a page shows who reads it.
            let keptFor = KeptRead(
                table: table, right: grant?.right ?? .read, requester: pattern.hasPrefix("/api/") ? nil : requester)
            return answer(request, for: requester, bound: nil, keptFor: keptFor, handler)
        case .creation:
            let table = request.query["table-id"]
            let grant = policy.grant(of: requester, on: table ?? "*")
            if let refusal = refusal(of: requester, grant, needing: .admin, on: table ?? "*", named: table) {
                return refusal
            }
        }
        return answer(request, for: requester, bound: nil, keptFor: nil, handler)
    }

    /// A read of all of a table, which may be kept (``KeptRead``).
    struct KeptRead {
        let table: String
        /// The right on the table of the requester it was made for: it goes
        /// again only to requesters with the same right.
        let right: AccessRight
        /// The one requester it may go to again; nil: any with that right.
        let requester: Requester?
    }

    /// `handler`'s answer for `requester`, its reads bound to `rows`. A read
    /// of all of a table (`keptFor`) may be kept and sent again without
    /// routing (docs/ACCESS.md, "Cost") to the requests ``admits(_:credential:)``
    /// lets through; no other answer is kept.
    private func answer(
        _ request: HTTPRequest, for requester: Requester, bound rows: TableQuery?, keptFor read: KeptRead?,
        _ handler: @escaping HTTPHandler
    ) -> HTTPResponse {
        var response = Requester.$current.withValue(requester) {
            BoundRows.$current.withValue(rows) { handler(request) }
        }
        if let read, rows == nil, var reuse = response.reuse {
            let credential = Self.carriesCredential(
                authorization: request.headers["Authorization"], cookie: request.headers["Cookie"])
            // An answer made for an anonymous requester goes again to the
            // requests without `Authorization` and `Cookie` (MicroHTTP's
            // default, asking nothing): each of them is that requester, with
            // the same grant while the answer holds — the policy file is read
            // once, and a table's `access` changes with its version.
            reuse.admits = requester == .anonymous && !credential ? nil : admits(read, credential: credential)
            response.reuse = reuse
        } else {
            response.reuse = nil
        }
        return response
    }

    /// Whether a request with `credentials` may be sent the kept answer of
    /// `read` without routing: its credential is of the same kind (one, or
    /// none, as the answer's cache headers say; ``PrivateAnswer``), and the
    /// requester it names — known at once, else it is routed to be verified —
    /// reads all of the table with the same right, and is `read`'s requester
    /// when it names one. An expired token is no longer known, so it is
    /// routed and refused.
    private func admits(_ read: KeptRead, credential: Bool) -> @Sendable (RequestCredentials) -> Bool {
        { credentials in
            guard
                Self.carriesCredential(authorization: credentials.authorization, cookie: credentials.cookie)
                    == credential,
                case .known(let requester) = resolve(
                    authorization: credentials.authorization, cookie: credentials.cookie),
                read.requester == nil || read.requester == requester,
                let grant = grant(of: requester, on: read.table)
            else { return false }
            return grant.right == read.right && grant.rows == nil
        }
    }

    private func refusal(
        of requester: Requester, _ grant: AccessGrant?, needing needed: AccessRight, on table: String,
        named name: String?
    ) -> HTTPResponse? {
        if let grant, grant.right >= needed { return nil }
        return requester == .anonymous
            ? AccessRefusal.challenge(needing: needed, on: name) : AccessRefusal.forbidden(needing: needed, on: name)
    }

    /// What a requester bound to `rows` of `table` may not do: read the
    /// table's change feed (403), edit but a row by id (403), or edit a row
    /// its view leaves out (404, as for a row that does not exist).
    private func boundRefusal(
        _ request: HTTPRequest, _ pattern: String, needing needed: AccessRight, rows: TableQuery, on table: String
    ) -> HTTPResponse? {
        if needed == .read {
            return pattern == "/api/tables/{t}/changes" ? AccessRefusal.boundToView(table) : nil
        }
        guard let id = request.parameters["rowID"], pattern.hasPrefix("/api/tables/{t}/items/{rowID}") else {
            return AccessRefusal.boundToView(table)
        }
        guard let handle = try? store.handle(table) else { return nil }
        let snapshot = handle.table
        if handle.views.view(rows, of: snapshot).indexPath(ofRow: id) != nil { return nil }
        return Respond.problem(.itemNotFound(table: table, id: id))
    }

    /// The view `requester` reads of `table`: nil for the whole table.
    func boundRows(of requester: Requester, on table: String) -> TableQuery? {
        grant(of: requester, on: table)?.rows
    }

    /// Whether the requester the current handler runs for may read `table`.
    func mayRead(_ table: String) -> Bool {
        grant(of: Requester.current, on: table) != nil
    }
}

extension RouteContext {
    /// Whether the current requester may read `table`: always, without a policy.
    func mayRead(_ table: String) -> Bool {
        access?.mayRead(table) ?? true
    }

    /// The tables the current requester may read, each as it reads it: the
    /// view its reads are bound to, or the table.
    func readableTables() -> [Table] {
        store.tables().compactMap { table in
            guard mayRead(table.id) else { return nil }
            return access?.boundRows(of: Requester.current, on: table.id).map { $0.view(of: table) } ?? table
        }
    }
}
