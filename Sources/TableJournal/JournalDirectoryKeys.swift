import Glibc
import TableModel

/// The `Idempotency-Key`s of creates and deletes of tables, as the journal
/// keeps them for its snapshots: no table holds them (a deleted table is gone
/// from the snapshot), so the snapshot lists them itself.
enum JournalDirectoryKeys {
    /// `keys` (oldest first) as a snapshot taken at `now` keeps them: those
    /// younger than `ChangeKey.lifetime`, the latest `ChangeKey.capacity`.
    static func kept(_ keys: [ChangeKey], now: Int = Int(time(nil))) -> [ChangeKey] {
        let young = keys.drop { now - $0.madeAt >= ChangeKey.lifetime }
        return Array(young.suffix(ChangeKey.capacity))
    }

    /// The keys a recovered journal holds, oldest first: its snapshot's, then
    /// those of its records.
    static func recovered(_ recovery: JournalRecovery) -> [ChangeKey] {
        kept(recovery.snapshotDirectoryKeys + recovery.records.compactMap(\.record.directoryKey))
    }
}
