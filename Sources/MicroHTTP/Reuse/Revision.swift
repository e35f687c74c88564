import Synchronization

/// A number an application advances whenever the state its answers are made
/// from changes, such as a table's version. An answer made at one value may be
/// sent again, unchanged, while the revision still reads that value (see
/// ``HTTPResponse/reusable(while:at:)``).
///
/// Reading it is one atomic load, so the server can check an answer it keeps
/// without taking the application's locks.
public final class Revision: Sendable {
    private let value: Atomic<Int>

    public init(_ value: Int = 0) {
        self.value = Atomic(value)
    }

    /// The value now.
    public var current: Int {
        value.load(ordering: .acquiring)
    }

    /// Moves to `newValue`; answers made at any other value are no longer sent.
    public func set(_ newValue: Int) {
        value.store(newValue, ordering: .releasing)
    }
}

/// The promise that a GET answer depends on nothing but its path and a
/// revision: while ``revision`` reads ``value``, the server may send the same
/// status, header fields and body to a later GET or HEAD of the same path that
/// has no query and no `If-None-Match`, without calling the handler — to a
/// request without `Authorization` and `Cookie`, or to one ``admits`` accepts.
public struct ResponseReuse: Sendable {
    public let revision: Revision
    public let value: Int
    /// Which requests may be sent the answer again, by their credentials;
    /// nil: those without `Authorization` and `Cookie` (a cookie may carry one). The application that checks
    /// credentials says who may have an answer made for another requester
    /// (a request it admits is answered without its handler, so without
    /// being checked again).
    public var admits: (@Sendable (RequestCredentials) -> Bool)?

    public init(revision: Revision, value: Int, admits: (@Sendable (RequestCredentials) -> Bool)? = nil) {
        self.revision = revision
        self.value = value
        self.admits = admits
    }

    /// Whether the answer still holds.
    public var holds: Bool {
        revision.current == value
    }

    /// Whether the answer still holds, for a request with these fields.
    func holds(for credentials: CredentialFields) -> Bool {
        guard holds else { return false }
        guard let admits else { return credentials.authorization == nil && credentials.cookie == nil }
        return admits(credentials.values)
    }
}

/// A request's credentials as a kept answer's ``ResponseReuse/admits`` sees
/// them: its `Authorization` and `Cookie` fields.
public struct RequestCredentials: Sendable, Equatable {
    public var authorization: String?
    public var cookie: String?

    public init(authorization: String? = nil, cookie: String? = nil) {
        self.authorization = authorization
        self.cookie = cookie
    }
}

/// The credential fields of a request, where libmicrohttpd keeps them: made
/// into strings only for an answer that asks (``ResponseReuse/admits``).
struct CredentialFields {
    var authorization: UnsafePointer<CChar>?
    var cookie: UnsafePointer<CChar>?

    var values: RequestCredentials {
        RequestCredentials(
            authorization: authorization.map { String(cString: $0) }, cookie: cookie.map { String(cString: $0) })
    }
}

extension HTTPResponse {
    /// This response, which the server may send again while `revision` reads
    /// `value`. Declare it only for answers made from the path and the state
    /// behind `revision` alone, not from the query, header fields or body.
    public func reusable(while revision: Revision, at value: Int) -> HTTPResponse {
        var response = self
        response.reuse = ResponseReuse(revision: revision, value: value)
        return response
    }
}
