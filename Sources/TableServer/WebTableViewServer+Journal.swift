import Logging
import TableJournal
import TableModel

extension WebTableViewServer {
    /// Fills `store`: from the journal's recovery when it holds anything, otherwise
    /// with `tables` (the `--data` files or the demo tables), whose creation the
    /// journal, when there is one, records. `tables` have distinct ids.
    static func load(_ tables: [Table], recovery: JournalRecovery?, into store: TableStore, logger: Logger) throws {
        if let recovery {
            for warning in recovery.warnings { logger.warning("journal: \(warning)") }
            do throws(JournalError) {
                try store.recover(recovery)
            } catch {
                throw StartError.journal(error)
            }
            if !recovery.isEmpty {
                logger.info(
                    "journal: tables recovered; --data and demo tables seed only an empty journal",
                    metadata: ["tables": "\(store.tables().count)", "records": "\(recovery.records.count)"])
                return
            }
        }
        for table in tables {
            do {
                try store.create(table)
            } catch {
                let reason = (error as? TableServerError)?.detail ?? "\(error)"
                throw StartError.journal(JournalError(.io, "cannot record table \"\(table.id)\": \(reason)"))
            }
        }
    }

    /// Logs what the journal reports from its background work.
    static func log(_ notice: JournalNotice, to logger: Logger) {
        let level: Logger.Level =
            switch notice.level {
            case .info: .info
            case .warning: .warning
            case .error: .error
            }
        logger.log(level: level, "\(notice.message)")
    }
}
