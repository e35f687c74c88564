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
/// has no query and no `If-None-Match`, without calling the handler.
public struct ResponseReuse: Sendable {
    public let revision: Revision
    public let value: Int

    /// Whether the answer still holds.
    public var holds: Bool {
        revision.current == value
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
