import Glibc

/// Finding out whether a commit went through when the connection broke while
/// it was under way (`PostgreSQL` restarted, the backend terminated, the
/// network cut): the answer is lost with the connection, not the commit
/// (docs/SCALING.md, "When a commit's answer is lost").
extension TableDatabase {
    /// How long a replica keeps trying to find out, before it answers that it
    /// cannot know (`.outcomeUnknown`).
    static let outcomeDeadline: Duration = .seconds(10)

    /// Whether the commit that backend `backend` was running went through,
    /// asked on another connection: first that backend must be gone (it is
    /// ended with `pg_terminate_backend` when it still runs, so it can commit
    /// no later), then `committed` looks for what the commit wrote. Tries
    /// again while PostgreSQL is out of reach, for `outcomeDeadline`; then
    /// throws `.outcomeUnknown`.
    func outcome(of backend: Int32, _ committed: (PostgresConnection) throws -> Bool) throws -> Bool {
        let deadline = ContinuousClock.now + Self.outcomeDeadline
        var pause = 50_000 as useconds_t
        while true {
            let reason: String
            do {
                return try pool.withConnection { connection in
                    let running = try connection.query(
                        """
                        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                         WHERE pid = $1 AND pid <> pg_backend_pid() AND application_name = 'webtableview'
                        """,
                        ["\(backend)"])
                    guard running.isEmpty else {
                        throw DatabaseError(.unavailable, "the backend of the broken connection was still running")
                    }
                    return try committed(connection)
                }
            } catch let error as DatabaseError where error.kind == .unavailable {
                reason = error.message
            } catch {
                throw DatabaseError(.outcomeUnknown, "whether the commit went through could not be read: \(error)")
            }
            guard ContinuousClock.now + .microseconds(pause) < deadline else {
                throw DatabaseError(
                    .outcomeUnknown,
                    "the connection broke during the commit, and PostgreSQL did not say since: \(reason)")
            }
            usleep(pause)
            pause = min(pause * 2, 500_000)
        }
    }

    /// Whether commit `commit` wrote change rows of `incarnation`.
    static func wrote(_ commit: Int64, of incarnation: Int64, on connection: PostgresConnection) throws -> Bool {
        try !connection.query(
            "SELECT 1 FROM webtableview_changes WHERE incarnation = $1 AND commit_id = $2 LIMIT 1",
            ["\(incarnation)", "\(commit)"]
        ).isEmpty
    }

    /// Whether the table of `incarnation` exists.
    static func exists(_ incarnation: Int64, on connection: PostgresConnection) throws -> Bool {
        try !connection.query("SELECT 1 FROM webtableview_tables WHERE incarnation = $1", ["\(incarnation)"]).isEmpty
    }
}
