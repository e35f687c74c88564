import CLibPQ
import Glibc

/// Why the database could not do what was asked.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// PostgreSQL is out of reach, or the connection broke: retry later.
        case unavailable
        /// PostgreSQL (or libpq) refused the connection for a reason waiting
        /// does not mend: a malformed URL, a refused password, no such database.
        case rejected
        /// A statement failed (a constraint, a bad statement).
        case statement
        /// The database holds what this server did not write.
        case inconsistent
        /// The table was deleted, or deleted and created again, through another replica.
        case tableMissing
        /// Changes this replica lacks were trimmed: it must load the table again.
        case historyGone
        /// The connection broke while a commit was under way, and whether it
        /// committed could not be found out in time: it may have, or not.
        case outcomeUnknown
        /// The `Idempotency-Key` of a create or a delete was recorded
        /// meanwhile, through another replica: nothing was made.
        case keyTaken
    }

    public var kind: Kind
    public var message: String
    /// The SQLSTATE of a failed statement (`23505` for a unique violation).
    public var sqlState: String?

    public init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
    }

    public var description: String { message }
}

/// One libpq connection, used by one thread at a time (the pool or the
/// listener hands it out). Statements take text parameters (`$1`, `$2`, …) and
/// answer rows of text; nil for SQL NULL. Unchecked `Sendable`: the pool hands
/// it from thread to thread, and only one uses it at a time.
final class PostgresConnection: @unchecked Sendable {
    private let connection: OpaquePointer
    /// The names of the statements prepared on this connection (`query(_:_:prepared:)`).
    private var prepared: Set<String> = []

    /// Connects with a libpq URL or conninfo string; gives up after `timeout` seconds.
    init(url: String, timeout: Int) throws(DatabaseError) {
        // `dbname` holding a URL or conninfo is expanded; its own keywords win
        // over the defaults before it. TCP keepalives and a user timeout bound
        // how long a statement waits on a peer that vanished (a partition)
        // to about ten seconds, instead of the kernel's minutes. On the
        // server, no statement runs longer than 6 s and none waits longer
        // than 4 s for a lock (a replica frozen while it holds a table's row
        // lock): it fails, rolled back, and its edits answer 503.
        let keys = [
            "connect_timeout", "application_name", "keepalives", "keepalives_idle", "keepalives_interval",
            "keepalives_count", "tcp_user_timeout", "options", "dbname",
        ]
        let values = [
            "\(timeout)", "webtableview", "1", "5", "2", "3", "10000",
            "-c statement_timeout=6000 -c lock_timeout=4000", url,
        ]
        let made: OpaquePointer? = keys.withCStrings { keyPointers in
            values.withCStrings { valuePointers in PQconnectdbParams(keyPointers, valuePointers, 1) }
        }
        guard let made else { throw DatabaseError(.unavailable, "cannot allocate a PostgreSQL connection") }
        guard PQstatus(made) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(made))
            PQfinish(made)
            let kind: DatabaseError.Kind = Self.mends(message) ? .unavailable : .rejected
            throw DatabaseError(kind, "cannot connect to PostgreSQL: \(message)")
        }
        PQsetNoticeReceiver(made, quietNoticeReceiver, nil)
        connection = made
    }

    deinit { PQfinish(connection) }

    /// What libpq says when PostgreSQL is not there yet, or not ready: the
    /// failures that trying again can mend. Any other (a malformed URL, a
    /// refused password, no such database or role) is `.rejected`.
    static let mendingFailures = [
        "Connection refused", "timeout expired", "timed out", "could not translate host name",
        "No route to host", "Network is unreachable", "the database system is starting up",
        "the database system is shutting down", "the database system is in recovery mode",
        "the database system is not yet accepting connections", "too many clients",
        "server closed the connection unexpectedly", "No such file or directory",
    ]

    static func mends(_ message: String) -> Bool {
        mendingFailures.contains { message.contains($0) }
    }

    /// How long a statement may go without an answer before the connection
    /// counts as broken, in milliseconds: a frozen PostgreSQL keeps its
    /// connections open and answers nothing, which no TCP timeout notices.
    /// Longer than the server's own `statement_timeout`, which ends a slow
    /// statement cleanly first.
    static let answerDeadline = 8_000
    /// Set when a statement's answer did not come in time: the socket is shut.
    private var cut = false

    /// False once the connection broke; the pool then drops it.
    var isHealthy: Bool { !cut && PQstatus(connection) == CONNECTION_OK }

    /// The process id of the PostgreSQL backend serving this connection.
    var backendPID: Int32 { PQbackendPID(connection) }

    /// Runs one statement with text parameters and answers its rows. With a
    /// name, the statement is prepared on this connection the first time
    /// (parsed and planned once), then only executed: for the statements every
    /// edit or notice runs.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = [], prepared name: String? = nil) throws(DatabaseError)
        -> [[String?]]
    {
        if let name, !prepared.contains(name) {
            let made = try exchange { PQsendPrepare(connection, name, sql, Int32(parameters.count), nil) }
            defer { PQclear(made) }
            try check(made)
            prepared.insert(name)
        }
        let result = try exchange {
            parameters.withOptionalCStrings { pointers in
                if let name {
                    PQsendQueryPrepared(connection, name, Int32(parameters.count), pointers, nil, nil, 0)
                } else {
                    PQsendQueryParams(connection, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
                }
            }
        }
        defer { PQclear(result) }
        try check(result)
        var rows: [[String?]] = []
        let count = PQntuples(result), columns = PQnfields(result)
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            rows.append(
                (0..<columns).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : Self.text(PQgetvalue(result, row, column))
                })
        }
        return rows
    }

    /// Sends a statement with `send` (a `PQsend…` call) and answers its last
    /// result, waiting at most `answerDeadline` for each part of the answer;
    /// past it, the connection is shut and counts as broken (`.unavailable`).
    private func exchange(_ send: () -> Int32) throws(DatabaseError) -> OpaquePointer {
        guard send() == 1 else { throw failure() }
        var last: OpaquePointer?
        while true {
            do throws(DatabaseError) {
                try awaitAnswer()
            } catch {
                if let last { PQclear(last) }
                throw error
            }
            guard let result = PQgetResult(connection) else { break }
            if let last { PQclear(last) }
            last = result
        }
        guard let last else { throw failure() }
        return last
    }

    /// Returns once libpq has the next part of a statement's answer.
    private func awaitAnswer() throws(DatabaseError) {
        let deadline = ContinuousClock.now + .milliseconds(Self.answerDeadline)
        while PQisBusy(connection) == 1 {
            let left = (deadline - ContinuousClock.now).components
            let milliseconds = left.seconds * 1_000 + left.attoseconds / 1_000_000_000_000_000
            guard milliseconds > 0 else {
                cut = true
                shutdown(PQsocket(connection), Int32(SHUT_RDWR))
                throw DatabaseError(.unavailable, "PostgreSQL did not answer within \(Self.answerDeadline / 1_000) s")
            }
            var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(milliseconds))
            if ready < 0 && errno != EINTR { throw DatabaseError(.unavailable, "poll failed: errno \(errno)") }
            if ready > 0 && PQconsumeInput(connection) != 1 { throw failure() }
        }
    }

    /// Throws the error of a failed statement's result.
    private func check(_ result: OpaquePointer) throws(DatabaseError) {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.text(PQresultErrorMessage(result))
            if !isHealthy { throw DatabaseError(.unavailable, "PostgreSQL connection lost: \(message)") }
            throw DatabaseError(.statement, message, sqlState: state)
        }
    }

    /// Waits up to `milliseconds` for notifications (after `LISTEN`) and answers
    /// their payloads; throws when the connection broke.
    func notifications(waitingUpTo milliseconds: Int32) throws(DatabaseError) -> [String] {
        var payloads = takeNotifications()
        if !payloads.isEmpty { return payloads }
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else { throw failure() }
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0 && errno != EINTR { throw DatabaseError(.unavailable, "poll failed: errno \(errno)") }
        if ready > 0 {
            guard PQconsumeInput(connection) == 1 else { throw failure() }
            payloads = takeNotifications()
        }
        return payloads
    }

    private func takeNotifications() -> [String] {
        var payloads: [String] = []
        while let notification = PQnotifies(connection) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }

    private func failure() -> DatabaseError {
        DatabaseError(.unavailable, "PostgreSQL connection lost: \(Self.text(PQerrorMessage(connection)))")
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer).trimmingTrailingNewlines()
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}

extension Array where Element == String {
    /// Calls `body` with C strings of the elements, valid for the call.
    fileprivate func withCStrings<T>(_ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        map { Optional($0) }.withOptionalCStrings(body)
    }
}

extension Array where Element == String? {
    /// Calls `body` with C strings of the elements (NULL for nil), valid for the call.
    fileprivate func withOptionalCStrings<T>(_ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies: [UnsafeMutablePointer<CChar>?] = map { $0.map { strdup($0) } }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } } + [nil])
    }
}

/// Where libpq sends the notices PostgreSQL attaches to statements: instead of
/// libpq's default, which prints every one to standard error, it prints only
/// warnings. A replica's statements draw notices in their ordinary course (the
/// schema's `CREATE TABLE IF NOT EXISTS` says `NOTICE: relation … already
/// exists, skipping` at every start after the first); they say nothing an
/// operator should act on, and would fill the console.
private let quietNoticeReceiver: PQnoticeReceiver = { _, result in
    // "V": PG_DIAG_SEVERITY_NONLOCALIZED, the severity whatever the server's language.
    guard let result, let severity = PQresultErrorField(result, Int32(UInt8(ascii: "V"))),
        String(cString: severity) == "WARNING", let message = PQresultErrorMessage(result)
    else { return }
    _ = write(STDERR_FILENO, message, strlen(message))
}
