/// Why the journal could not open, recover, or record a change.
public struct JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; the server's answer and log wording depend on it.
    public enum Kind: Sendable, Equatable {
        /// A system call failed (disk full, permissions, I/O error).
        case io
        /// A file's bytes are damaged somewhere other than a torn tail: start-up refuses
        /// to guess what was lost.
        case damaged
        /// The records contradict each other (a version gap, a table created twice).
        case inconsistent
        /// Another process holds the journal directory.
        case inUse
        /// The journal was closed, or an earlier write or flush failed and it no
        /// longer accepts records.
        case unavailable
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
