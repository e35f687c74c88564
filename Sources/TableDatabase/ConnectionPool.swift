import Dispatch
import Synchronization

/// Up to `size` connections, made when first needed and kept while healthy. A
/// connection is used by one thread at a time: `withConnection` lends it.
final class ConnectionPool: Sendable {
    private let idle = Mutex<[PostgresConnection]>([])
    private let slots: DispatchSemaphore
    let url: String
    let connectTimeout: Int

    init(url: String, size: Int, connectTimeout: Int) {
        self.url = url
        self.connectTimeout = connectTimeout
        slots = DispatchSemaphore(value: max(1, size))
    }

    /// Lends a connection (connecting when none is idle) for `body`; a
    /// connection that broke is dropped, not kept.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let connection = try idle.withLock { $0.popLast() } ?? PostgresConnection(url: url, timeout: connectTimeout)
        defer {
            if connection.isHealthy { idle.withLock { $0.append(connection) } }
        }
        return try body(connection)
    }

    /// Runs `body` in one transaction, committed when it returns and rolled
    /// back when it throws.
    func transaction<T>(
        _ begin: String = "BEGIN", _ body: (PostgresConnection) throws -> T
    ) throws -> T {
        try withConnection { connection in
            try connection.query(begin)
            do {
                let result = try body(connection)
                try connection.query("COMMIT")
                return result
            } catch {
                if connection.isHealthy { _ = try? connection.query("ROLLBACK") }
                throw error
            }
        }
    }
}
