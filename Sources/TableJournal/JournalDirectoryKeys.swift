import Glibc
import TableModel

/// The `Idempotency-Key`s of creates and deletes of tables, as the journal
/// keeps them for its snapshots: no table holds them (a deleted table is gone
/// from the snapshot), so the snapshot lists them itself.
enum JournalDirectoryKeys {
    /// `keys` (oldest first) as a snapshot taken at `now` keeps them: those
    /// younger than `ChangeKey.lifetime`, the latest `ChangeKey.capacity`,
    /// each once (a key recorded after a snapshot's segment began may be both
    /// in the snapshot and in a record after it).
    static func kept(_ keys: [ChangeKey], now: Int = Int(time(nil))) -> [ChangeKey] {
        var seen = Set<String>()
        let latest = keys.reversed().filter { now - $0.madeAt < ChangeKey.lifetime && seen.insert($0.key).inserted }
        return Array(latest.prefix(ChangeKey.capacity).reversed())
    }

    /// The keys a recovered journal holds, oldest first: its snapshot's, then
    /// those of its records.
    static func recovered(_ recovery: JournalRecovery) -> [ChangeKey] {
        kept(recovery.snapshotDirectoryKeys + recovery.records.compactMap(\.record.directoryKey))
    }
}
