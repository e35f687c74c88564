import JSON
import TableModel

/// A table as a snapshot holds it, with the sequence number of the last journal
/// record that touched it (0 when none has): recovery replays only later records.
public struct SnapshotTable: Sendable, Equatable {
    public var table: Table
    public var sequence: UInt64

    public init(table: Table, sequence: UInt64) {
        self.table = table
        self.sequence = sequence
    }
}

/// Every table as of the start of segment `segment`, in one file.
///
/// The tables are copied one at a time, each under its own lock, after the
/// journal moved on to segment `segment`; `listedSequence` is the last record
/// number written when the copying ended. Recovery replays the records of
/// `segment` and later that a table's copy does not already hold (see
/// `JournalRecovery.replay(into:)`).
///
/// File: the snapshot magic, a header frame `{"segment", "listed", "tables"}`,
/// then one frame per table (its Table document; sequence = the table's).
struct JournalSnapshot: Sendable {
    var segment: Int
    var listedSequence: UInt64
    var tables: [SnapshotTable]

    /// Writes the snapshot beside its final name, flushes it, then renames it into
    /// place, so that a snapshot file is either complete or absent. Answers its size.
    func write(in directory: JournalDirectory) throws(JournalError) -> Int {
        let temporary = directory.temporarySnapshotPath(segment)
        try JournalFile.remove(temporary)
        let file = try JournalFile.create(temporary)
        var size = 0
        do throws(JournalError) {
            try file.write(JournalFrame.snapshotMagic)
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("segment"); writer.integer(segment)
            writer.key("listed"); writer.integer(Int(listedSequence))
            writer.key("tables"); writer.integer(tables.count)
            writer.endObject()
            let header = try JournalFrame.Prepared(payload: writer.bytes).sealed(sequence: listedSequence)
            try file.write(header)
            size = JournalFrame.snapshotMagic.count + header.count
            for entry in tables {
                let frame = try JournalFrame.Prepared(payload: entry.table.jsonBytes).sealed(sequence: entry.sequence)
                try file.write(frame)
                size += frame.count
            }
            try file.sync()
            file.close()
        } catch {
            file.close()
            try? JournalFile.remove(temporary)
            throw error
        }
        try JournalFile.rename(temporary, to: directory.snapshotPath(segment))
        try JournalFile.syncDirectory(directory.path)
        return size
    }

    /// Reads a snapshot; any damage is an error, since a snapshot is renamed into
    /// place only once complete and flushed.
    static func read(_ path: String) throws(JournalError) -> JournalSnapshot {
        let bytes = try JournalFile.read(path)
        func damaged(_ detail: String) -> JournalError { JournalError(.damaged, "snapshot \(path): \(detail)") }
        guard bytes.starts(with: JournalFrame.snapshotMagic) else { throw damaged("not a snapshot file") }
        var offset = JournalFrame.snapshotMagic.count
        func nextFrame() throws(JournalError) -> JournalFrame.Frame {
            guard offset < bytes.count else { throw damaged("ends early") }
            switch JournalFrame.read(bytes, at: offset) {
            case .success(let frame):
                offset = frame.end
                return frame
            case .failure(let error):
                throw damaged("at byte \(offset): \(error.message)")
            }
        }
        let headerFrame = try nextFrame()
        guard case .object(let header) = try JournalRecord.parse(bytes[headerFrame.payload]),
            case .integer(let segment) = header["segment"], case .integer(let count) = header["tables"], count >= 0
        else { throw damaged("unreadable header") }
        var tables: [SnapshotTable] = []
        for _ in 0..<count {
            let frame = try nextFrame()
            let table = try JournalRecord.table(from: try JournalRecord.parse(bytes[frame.payload]))
            tables.append(SnapshotTable(table: table, sequence: frame.sequence))
        }
        guard offset == bytes.count else { throw damaged("\(bytes.count - offset) bytes after the last table") }
        return JournalSnapshot(segment: segment, listedSequence: headerFrame.sequence, tables: tables)
    }
}
