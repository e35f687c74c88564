import CMicroHTTPD
import Glibc

extension HTTPServer {
    /// libmicrohttpd's access handler: called once when the headers have
    /// arrived, once per piece of body, and once more when the body is complete.
    func handle(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>?,
        upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let absolute = AbsoluteForm.split(url)
        let url = absolute?.path ?? url
        let targetRefusal = slot.pointee.flatMap(TargetRefusal.init(marker:))
        guard let existing = slot.pointee, targetRefusal == nil else {
            let context =
                wtv_connection_context(connection).map {
                    Unmanaged<RequestContext>.fromOpaque($0).takeUnretainedValue()
                }
                ?? RequestContext()
            context.begin(method: method)
            context.targetRefusal = targetRefusal
            if logsRequests {
                _ = context.path(from: url)
            }
            slot.pointee = Unmanaged.passRetained(context).toOpaque()
            // Counted before the phase is read: a shutdown that has not
            // seen this request yet has already stopped running (see shutdown()).
            metricsRecorder.begin()
            context.closesConnection = !isRunning.load(ordering: .sequentiallyConsistent)
            return begin(context, url: url, authority: absolute?.authority, version: version, connection: connection)
        }
        let context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
        let size = uploadSize.pointee
        uploadSize.pointee = 0
        guard context.status == nil else {
            return .YES
        }
        guard size > 0 else {
            return context.discarded > 0
                ? queue(tooLarge(), for: context, connection: connection)
                : respond(context, url: url, connection: connection)
        }
        if context.discarded > 0 || context.body.count + size > configuration.maxBodySize {
            // libmicrohttpd 0.9.75 cannot answer before the body ends: drop
            // what was kept, discard the rest, and answer 413 at its end. A
            // client that sends another `maxBodySize` bytes is cut off.
            context.body = []
            context.discarded += size
            return context.discarded > configuration.maxBodySize ? .NO : .YES
        }
        context.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: size))
        return .YES
    }

    /// First call: refuse what the headers alone show to be refused, else
    /// wait for the body. (Answering a GET on this call would work, but
    /// libmicrohttpd 0.9.75 then closes the connection instead of keeping it alive.)
    private func begin(
        _ context: RequestContext, url: UnsafePointer<CChar>, authority: [CChar]?, version: UnsafePointer<CChar>?,
        connection: OpaquePointer
    ) -> MHD_Result {
        context.fields = RequestFields(of: connection)
        let fields = context.fields
        if let refusal = targetRefusal(context) {
            context.closesConnection = true
            return queue(refusal, for: context, connection: connection)
        }
        switch RequestFraming.verdict(on: fields, version: version) {
        case .refuse(let refusal):
            // What follows these headers cannot be trusted to be this request's body.
            context.closesConnection = true
            return queue(refusal, for: context, connection: connection)
        case .acceptThenClose:
            context.closesConnection = true
        case .accept:
            break
        }
        if let refusal = authority.flatMap(RequestFraming.authorityRefusal) {
            context.closesConnection = true
            return queue(refusal, for: context, connection: connection)
        }
        // An absolute-form target's authority stands for Host (RFC 9112 §3.2.2).
        let allowed =
            authority.map { $0.withUnsafeBufferPointer { configuration.originPolicy.allows(host: $0.baseAddress) } }
            ?? configuration.originPolicy.allows(host: fields.host)
        guard allowed else {
            context.closesConnection = true
            return queue(
                .problem(
                    status: 421, type: "misdirected-request",
                    detail: configuration.originPolicy.misdirectedDetail),
                for: context, connection: connection)
        }
        guard context.method != nil else {
            let (response, route) = router.refuseUnroutedMethod(context.methodText, path: context.path(from: url))
            context.route = route
            return queue(response, for: context, connection: connection)
        }
        let contentLength = fields.contentLength.flatMap { Int(String(cString: $0)) }
        if let contentLength, contentLength > configuration.maxBodySize {
            return queue(tooLarge(), for: context, connection: connection)
        }
        if let contentLength, contentLength > 0 {
            context.body.reserveCapacity(contentLength)
        }
        return .YES
    }

    /// A request target over the limits (see ``uriLogger``), which
    /// libmicrohttpd 0.9.75 would read.
    private func targetRefusal(_ context: RequestContext) -> HTTPResponse? {
        switch context.targetRefusal {
        case .tooLong:
            .problem(
                status: 414, type: "uri-too-long",
                detail: "The request target is longer than \(configuration.maxTargetLength) bytes.")
        case .tooManyArguments:
            .problem(
                status: 414, type: "uri-too-long",
                detail: "The request target has more than \(configuration.maxQueryArguments) query arguments.")
        case nil:
            nil
        }
    }

    /// The whole request is in: send the answer kept for it (on this thread's
    /// shelf, else among the shared answers), or route it and queue the
    /// handler's answer (keeping it, when the handler allows).
    private func respond(_ context: RequestContext, url: UnsafePointer<CChar>, connection: OpaquePointer) -> MHD_Result
    {
        guard let method = context.method else {
            return .NO
        }
        if let deferred = context.deferred {
            return resume(deferred, for: context, connection: connection)
        }
        if let refusal = undoContentCoding(of: context) {
            return queue(refusal, for: context, connection: connection)
        }
        let coding = Self.coding(accepted: context.fields.acceptEncoding)
        let lookup =
            method == .GET || method == .HEAD
            ? preparedResponses.lookUp(url, coding: coding) { Self.isPlain(context, on: connection) } : .skipped
        if case .found(let entry) = lookup {
            return queue(entry, for: context, connection: connection)
        }
        if let key = lookup.key, let answer = preparedResponses.shared.answer(for: key), let entry = prepare(answer) {
            if answer.body.count <= preparedResponses.largestBody, let key = preparedResponses.admits(lookup) {
                preparedResponses.keep(entry, for: key)
            }
            return queue(entry, for: context, connection: connection)
        }
        var headers = Self.values(of: .HEADER_KIND, on: connection)
        if context.fields.contentEncoding != nil {
            // The body the handler reads is the decoded one.
            headers.remove("Content-Encoding")
        }
        let namesCoded = Self.uncodeConditions(&headers, for: coding)
        let request = HTTPRequest(
            method: method,
            path: context.path(from: url),
            query: Self.values(of: .GET_ARGUMENT_KIND, on: connection).reduce(into: [:]) { query, field in
                if query[field.name] == nil {
                    query[field.name] = field.value
                }
            },
            headers: headers,
            body: context.body,
            contentCoding: coding
        )
        context.body = []
        var (answer, route) = router.dispatch(request)
        if let deferral = answer.deferral {
            context.route = route
            let policy = configuration.originPolicy
            context.finishDeferred = { response in
                var response = response
                policy.applyCORS(to: &response, origin: request.headers["Origin"], request: request)
                return ContentEncoding.encode(response, in: coding, namesCoded: namesCoded)
            }
            return suspend(deferral, for: context, connection: connection)
        }
        configuration.originPolicy.applyCORS(to: &answer, origin: request.headers["Origin"], request: request)
        let response = ContentEncoding.encode(answer, in: coding, namesCoded: namesCoded)
        if response.reuse != nil, let key = lookup.key {
            preparedResponses.shared.keep(response, route: route, for: key)
        }
        if response.reuse != nil, let key = preparedResponses.admits(lookup),
            let entry = prepare(response, route: route)
        {
            preparedResponses.keep(entry, for: key)
            return queue(entry, for: context, connection: connection)
        }
        context.route = route
        return queue(response, for: context, connection: connection)
    }

    /// The handler answers later: the connection is suspended until it does
    /// (answered at once when it did already, or when the server is stopping).
    private func suspend(_ deferral: DeferredResponse, for context: RequestContext, connection: OpaquePointer)
        -> MHD_Result
    {
        guard register(deferral) else {
            deferral.detach()
            context.closesConnection = true
            return queue(Self.stopping(), for: context, connection: connection)
        }
        context.deferred = deferral
        guard let ready = deferral.suspend(ConnectionHandle(pointer: connection)) else {
            return .YES
        }
        return queueDeferred(ready, for: context, connection: connection)
    }

    /// The connection was resumed: queue the deferred answer.
    private func resume(_ deferral: DeferredResponse, for context: RequestContext, connection: OpaquePointer)
        -> MHD_Result
    {
        guard let response = deferral.take() else {
            return .YES
        }
        return queueDeferred(response, for: context, connection: connection)
    }

    private func queueDeferred(_ response: HTTPResponse, for context: RequestContext, connection: OpaquePointer)
        -> MHD_Result
    {
        if !isRunning.load(ordering: .sequentiallyConsistent) {
            context.closesConnection = true
        }
        let finished = context.finishDeferred?(response) ?? response
        context.finishDeferred = nil
        return queue(finished, for: context, connection: connection)
    }

    /// The answer to a deferred request the stopping server gives up waiting for.
    static func stopping() -> HTTPResponse {
        .problem(
            status: 503, type: "shutting-down", detail: "The server is stopping; try again.",
            headers: ["Retry-After": "1"])
    }

    /// The coding the request's `Accept-Encoding` (`field`) prefers, read from
    /// libmicrohttpd's bytes.
    private static func coding(accepted field: UnsafePointer<CChar>?) -> ContentCoding {
        guard let field else {
            return .identity
        }
        return field.withMemoryRebound(to: UInt8.self, capacity: 1) { bytes in
            ContentCoding.preferred(by: UnsafeBufferPointer(start: bytes, count: strlen(field)))
        }
    }

    /// Takes the coded entity tags of `If-None-Match` and `If-Match` back to
    /// the handlers' own (see ``ContentEncoding``); answers whether
    /// `If-None-Match` named a compressed coding's tag.
    private static func uncodeConditions(_ headers: inout HTTPHeaders, for coding: ContentCoding) -> Bool {
        var namesCoded = false
        if let ifNoneMatch = headers["If-None-Match"] {
            let condition = ContentEncoding.condition(ifNoneMatch, for: coding)
            namesCoded = condition.namesCoded
            if let value = condition.value {
                headers.set("If-None-Match", value)
            } else {
                headers.remove("If-None-Match")
            }
        }
        if let ifMatch = headers["If-Match"] {
            headers.set("If-Match", ContentEncoding.uncoded(ifMatch))
        }
        return namesCoded
    }

    /// Whether the request is one a reusable answer fits: no body, no query,
    /// no credential (`Authorization`, or a `Cookie` that may carry one: the
    /// access policy checks it; docs/ACCESS.md),
    /// not conditional (`If-None-Match`, or `Min-Version`, which may make the
    /// handler wait or refuse), not cross-origin (a kept answer carries no CORS
    /// fields), and its connection is not closing (a kept answer carries no
    /// `Connection: close`), and asking for no form of its own (``acceptsKeptForm(_:)``).
    private static func isPlain(_ context: RequestContext, on connection: OpaquePointer) -> Bool {
        let fields = context.fields
        return context.body.isEmpty && !context.closesConnection && fields.ifNoneMatch == nil
            && fields.minVersion == nil && fields.authorization == nil && fields.cookie == nil
            && fields.origin == nil && acceptsKeptForm(fields.accept)
            && MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, nil, nil) == 0
    }

    /// Whether an `Accept` field takes what a request without one gets, so that
    /// a kept answer fits it: none, or one naming `*/*` or `application/json`
    /// (what browsers and API clients send) and no other text form a handler
    /// may choose instead (`text/csv`, `text/*`). Any other goes to its handler,
    /// which may answer another form or 406 (docs/API.md, "CSV").
    private static func acceptsKeptForm(_ accept: UnsafePointer<CChar>?) -> Bool {
        guard let accept else { return true }
        return (contains(accept, "*/*") || contains(accept, "application/json")) && !contains(accept, "csv")
            && !contains(accept, "text/*")
    }

    /// Whether the C string `text` holds `word` (lowercase ASCII), ignoring case.
    private static func contains(_ text: UnsafePointer<CChar>, _ word: StaticString) -> Bool {
        let word = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        var start = 0
        while text[start] != 0 {
            var index = 0
            while index < word.count {
                var byte = UInt8(bitPattern: text[start + index])
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
                if byte != word[index] { break }
                index += 1
            }
            if index == word.count { return true }
            start += 1
        }
        return false
    }

    /// Undoes the body's `Content-Encoding` in place: gzip, inflated within
    /// the body limit, or none. Answers the refusal of any other coding (415,
    /// RFC 9110 §15.5.16), of a body that is not what its coding says (400) or
    /// that inflates past the limit (413).
    private func undoContentCoding(of context: RequestContext) -> HTTPResponse? {
        guard let field = context.fields.contentEncoding, !context.body.isEmpty else {
            return nil
        }
        let codings = RequestFraming.codingList(field).filter { $0 != "identity" }
        switch codings {
        case []:
            return nil
        case ["gzip"], ["x-gzip"]:
            do throws(Inflation.Failure) {
                context.body = try Inflation.gunzip(context.body, limit: configuration.maxBodySize)
                return nil
            } catch .tooLarge {
                return tooLarge()
            } catch {
                return .problem(
                    status: 400, type: "malformed-body", detail: "The body is not the gzip its Content-Encoding says.")
            }
        default:
            return .problem(
                status: 415, type: "unsupported-content-encoding",
                detail: "Request bodies are read as sent or in gzip, not in \(codings.joined(separator: ", ")).",
                headers: ["Accept-Encoding": "gzip"])
        }
    }

    private func tooLarge() -> HTTPResponse {
        .problem(
            status: 413,
            type: "body-too-large",
            detail: "The request body is larger than \(configuration.maxBodySize) bytes."
        )
    }

    /// The request is over: count it, log it.
    func finish(_ context: RequestContext, reason: MHD_RequestTerminationCode) {
        if let deferred = context.deferred {
            deferred.detach()
            unregister(deferred)
        }
        let nanoseconds = context.nanoseconds
        metricsRecorder.end(
            method: context.method,
            route: context.route,
            status: context.status,
            seconds: Double(nanoseconds) / 1_000_000_000
        )
        guard logsRequests else {
            return
        }
        let microseconds = nanoseconds / 1000
        // The method and path are the client's bytes: escaped, so they cannot forge a line.
        let line =
            "\(LogText.escaped(context.methodText)) \(LogText.escaped(context.path ?? "")) \(context.status ?? 0) \(microseconds)µs"
        if reason == .REQUEST_TERMINATED_COMPLETED_OK {
            logger.info("\(line)")
        } else if context.isEventStream && Self.isClientLeaving(reason) {
            // An event stream has no end of its own: its client leaving is how it ends.
            logger.info("\(line)", metadata: ["termination": "client-left"])
        } else {
            logger.info("\(line)", metadata: ["termination": "\(Self.describe(reason))"])
        }
    }

    /// How libmicrohttpd reports a client that closed its connection: a failed
    /// write (`error`), a failed read, or an abort.
    private static func isClientLeaving(_ reason: MHD_RequestTerminationCode) -> Bool {
        reason == .REQUEST_TERMINATED_WITH_ERROR || reason == .REQUEST_TERMINATED_READ_ERROR
            || reason == .REQUEST_TERMINATED_CLIENT_ABORT
    }

    private static func describe(_ reason: MHD_RequestTerminationCode) -> String {
        switch reason {
        case .REQUEST_TERMINATED_WITH_ERROR: "error"
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: "timeout"
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: "shutdown"
        case .REQUEST_TERMINATED_READ_ERROR: "read-error"
        case .REQUEST_TERMINATED_CLIENT_ABORT: "client-abort"
        default: "other"
        }
    }

    /// Header fields or query arguments of the current request, in order.
    private static func values(of kind: MHD_ValueKind, on connection: OpaquePointer) -> HTTPHeaders {
        var fields = HTTPHeaders()
        // Called with no iterator, libmicrohttpd only counts the values.
        let count = Int(MHD_get_connection_values(connection, kind, nil, nil))
        guard count > 0 else {
            return fields
        }
        fields.reserveCapacity(count)
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values(
                connection, kind,
                { context, _, key, value in
                    guard let context, let key else {
                        return .YES
                    }
                    context.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(
                        String(cString: key),
                        value.map { String(cString: $0) } ?? ""
                    )
                    return .YES
                }, pointer)
        }
        return fields
    }
}
