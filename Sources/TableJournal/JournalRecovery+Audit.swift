import TableModel

extension JournalRecovery {
    /// The audit trail of table `id` as this journal holds it, oldest first
    /// (docs/ACCESS.md, "Audit"): the table as the latest snapshot kept it
    /// (the changes before it are no longer in the journal), then each
    /// create, change and delete of a table with that id after it.
    public func auditTrail(of id: String) -> [AuditEntry] {
        var entries: [AuditEntry] = []
        var version = 0
        var snapshotSequence: UInt64 = 0
        if let kept = snapshotTables.first(where: { $0.table.id == id }) {
            version = kept.table.version
            snapshotSequence = kept.sequence
            entries.append(
                AuditEntry(version: version, what: "as the journal's snapshot keeps it (earlier changes are not kept)"))
        }
        for entry in records where entry.sequence > snapshotSequence {
            switch entry.record {
            case .create(let table, let key) where table.id == id:
                version = table.version
                entries.append(AuditEntry(version: version, madeAt: key?.madeAt, what: "created"))
            case .changes(let tableID, let changes) where tableID == id:
                for change in changes {
                    version = change.version
                    entries.append(
                        AuditEntry(version: change.version, batch: change.batch, key: change.key, actor: change.actor))
                }
            case .delete(let tableID, let key) where tableID == id:
                entries.append(AuditEntry(version: version, madeAt: key?.madeAt, what: "deleted"))
            default:
                break
            }
        }
        return entries
    }
}
