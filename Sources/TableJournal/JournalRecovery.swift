import TableModel

/// One record read back, with its sequence number.
public struct SequencedRecord: Sendable, Equatable {
    public var sequence: UInt64
    public var record: JournalRecord

    public init(sequence: UInt64, record: JournalRecord) {
        self.sequence = sequence
        self.record = record
    }
}

/// Receives the tables a journal rebuilds, in order: the server's store, or
/// `RecoveredTables` in tests.
public protocol JournalReplayTarget {
    /// Adds `table` with its version as given (from a snapshot or a create record);
    /// `sequence` is the record it comes from.
    mutating func restore(_ table: Table, sequence: UInt64) throws(JournalError)
    /// Applies `changes` in order to table `id`; the journal has checked that they
    /// continue its version without a gap.
    mutating func apply(_ changes: [JournalChange], toTable id: String, sequence: UInt64) throws(JournalError)
    /// Drops table `id`.
    mutating func remove(tableID id: String)
    /// Remembers the `Idempotency-Key`s a snapshot kept for table `id`, just restored.
    mutating func restoreKeys(_ keys: [SnapshotKey], ofTable id: String) throws(JournalError)
    /// Remembers the `Idempotency-Key` of a create or a delete (from a
    /// snapshot or a record), whether or not its table is still there.
    mutating func restoreDirectoryKey(_ key: ChangeKey)
}

extension JournalReplayTarget {
    /// Keys are not kept (`RecoveredTables`).
    public mutating func restoreKeys(_ keys: [SnapshotKey], ofTable id: String) throws(JournalError) {}

    /// Keys are not kept (`RecoveredTables`).
    public mutating func restoreDirectoryKey(_ key: ChangeKey) {}
}

/// What a journal held at start-up: its latest snapshot and the intact records after it.
public struct JournalRecovery: Sendable {
    /// The latest snapshot's tables, in creation order; empty without a snapshot.
    public var snapshotTables: [SnapshotTable] = []
    /// The `Idempotency-Key`s of creates and deletes the snapshot kept, oldest first.
    public var snapshotDirectoryKeys: [ChangeKey] = []
    /// True when a snapshot was found (even one of no table).
    public var hasSnapshot = false
    /// The snapshot's `listedSequence` (0 without one).
    var listedSequence: UInt64 = 0
    /// The records of the segments from the snapshot on, in order.
    public var records: [SequencedRecord] = []
    /// What recovery dropped, in words for the log (a torn tail, for one).
    public var warnings: [String] = []
    /// Bytes of the records read, counted towards the next snapshot.
    var recordBytes = 0

    /// A journal that never held anything: the server seeds it (demo or `--data` tables).
    public var isEmpty: Bool { !hasSnapshot && records.isEmpty }

    /// The highest sequence number seen; the journal continues after it.
    var lastSequence: UInt64 {
        max(records.last?.sequence ?? 0, snapshotTables.map(\.sequence).max() ?? 0, listedSequence)
    }

    /// Rebuilds the tables into `target`: the snapshot's, then every record that
    /// a table's snapshot copy does not already hold.
    ///
    /// A table's copy was taken after the journal moved to the snapshot's segment,
    /// so records of that segment may already be in it: a record is replayed only
    /// when its sequence number is above the table's. A record for a table the
    /// snapshot lacks, numbered at most `listedSequence`, belongs to a table deleted
    /// while the snapshot was being taken, and is skipped. Anything else that does
    /// not fit — changes that skip a version, a table created twice — is an error,
    /// not a guess.
    ///
    /// The keys of creates and deletes are handed over first, the snapshot's
    /// then each record's, whatever became of their tables.
    public func replay<Target: JournalReplayTarget>(into target: inout Target) throws(JournalError) {
        for key in JournalDirectoryKeys.recovered(self) { target.restoreDirectoryKey(key) }
        var known: [String: (sequence: UInt64, version: Int)] = [:]
        for entry in snapshotTables {
            try target.restore(entry.table, sequence: entry.sequence)
            if !entry.keys.isEmpty { try target.restoreKeys(entry.keys, ofTable: entry.table.id) }
            known[entry.table.id] = (entry.sequence, entry.table.version)
        }
        for entry in records {
            let sequence = entry.sequence
            switch entry.record {
            case .create(let table, _):
                if let current = known[table.id] {
                    if sequence <= current.sequence { continue }
                    throw inconsistent(sequence, "creates table \"\(table.id)\", which exists")
                }
                try target.restore(table, sequence: sequence)
                known[table.id] = (sequence, table.version)
            case .changes(let id, let changes):
                guard let current = known[id] else {
                    if sequence <= listedSequence { continue }
                    throw inconsistent(sequence, "changes table \"\(id)\", which does not exist")
                }
                if sequence <= current.sequence { continue }
                for (offset, change) in changes.enumerated() where change.version != current.version + 1 + offset {
                    throw inconsistent(
                        sequence,
                        "gives table \"\(id)\" version \(change.version) after version \(current.version + offset)")
                }
                try target.apply(changes, toTable: id, sequence: sequence)
                known[id] = (sequence, current.version + changes.count)
            case .delete(let id, _):
                guard let current = known[id], sequence > current.sequence else { continue }
                target.remove(tableID: id)
                known[id] = nil
            }
        }
    }

    private func inconsistent(_ sequence: UInt64, _ detail: String) -> JournalError {
        JournalError(.inconsistent, "journal record \(sequence) \(detail)")
    }
}

/// Tables rebuilt from a journal as plain values, in creation order: for tests
/// and tools that read a journal without serving it.
public struct RecoveredTables: JournalReplayTarget, Sendable {
    public private(set) var tables: [Table] = []

    public init() {}

    public subscript(id: String) -> Table? { tables.first { $0.id == id } }

    public mutating func restore(_ table: Table, sequence: UInt64) throws(JournalError) {
        tables.append(table)
    }

    public mutating func apply(_ changes: [JournalChange], toTable id: String, sequence: UInt64) throws(JournalError) {
        guard let index = tables.firstIndex(where: { $0.id == id }) else { return }
        for change in changes {
            do throws(BatchError) {
                _ = try tables[index].apply(change.batch)
            } catch {
                throw JournalError(
                    .inconsistent, "version \(change.version) of \"\(id)\" does not apply: \(error.detail)")
            }
        }
    }

    public mutating func remove(tableID id: String) {
        tables.removeAll { $0.id == id }
    }
}
