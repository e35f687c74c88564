import Foundation
import Logging
import TableDatabase

extension WebTableViewServer {
    /// Connects to the database and migrates its schema, trying again with a
    /// growing pause (up to half a second) while PostgreSQL is out of reach
    /// (it may be starting next to this replica), for at most `timeout`
    /// seconds. A connection PostgreSQL rejects for a reason waiting does not
    /// mend (a malformed URL, a refused password) ends at once
    /// (`StartError.databaseRejected`).
    static func connect(_ options: DatabaseOptions, timeout: Int, logger: Logger) throws -> TableDatabase {
        let deadline = ContinuousClock.now + .seconds(timeout)
        var pause = 0.1
        while true {
            do {
                return try TableDatabase(options: options)
            } catch let error as DatabaseError where error.kind == .unavailable && ContinuousClock.now < deadline {
                logger.warning("database: \(error.message); trying again")
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.5)
            } catch let error as DatabaseError where error.kind == .rejected {
                throw StartError.databaseRejected(error.message)
            } catch {
                throw StartError.database("\(error)")
            }
        }
    }
}
