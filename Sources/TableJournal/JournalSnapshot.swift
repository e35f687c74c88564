import JSON
import TableModel

/// A table as a snapshot holds it, with the sequence number of the last journal
/// record that touched it (0 when none has): recovery replays only later records.
/// With the `Idempotency-Key`s of its latest edits, which a snapshot keeps
/// when it drops the records that carried them.
public struct SnapshotTable: Sendable, Equatable {
    public var table: Table
    public var sequence: UInt64
    public var keys: [SnapshotKey]

    public init(table: Table, sequence: UInt64, keys: [SnapshotKey] = []) {
        self.table = table
        self.sequence = sequence
        self.keys = keys
    }
}

/// One `Idempotency-Key` of a table, as a snapshot keeps it: the key, the
/// table's version after its edit, and the changes the edit answered, each
/// `{version, batch}` as `/changes` published it.
public struct SnapshotKey: Sendable, Equatable {
    public var key: ChangeKey
    public var version: Int
    public var changes: [[UInt8]]

    public init(key: ChangeKey, version: Int, changes: [[UInt8]]) {
        self.key = key
        self.version = version
        self.changes = changes
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
/// File: the snapshot magic, a header frame `{"segment", "listed", "tables"}`
/// (with `"keys": [ChangeKey]`, the keys of creates and deletes
/// (`directoryKeys`), when there are any),
/// then one frame per table (sequence = the table's): its Table document, or
/// `{"table": Table, "keys": [{"idempotency", "version", "changes"}]}` when it
/// has keys (each change as a JSON string of its bytes, kept exactly).
struct JournalSnapshot: Sendable {
    var segment: Int
    var listedSequence: UInt64
    var tables: [SnapshotTable]
    /// The `Idempotency-Key`s of creates and deletes still kept, oldest first.
    var directoryKeys: [ChangeKey] = []

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
            if !directoryKeys.isEmpty {
                writer.key("keys")
                writer.array { writer in for key in directoryKeys { key.writeJSON(to: &writer) } }
            }
            writer.endObject()
            let header = try JournalFrame.Prepared(payload: writer.bytes).sealed(sequence: listedSequence)
            try file.write(header)
            size = JournalFrame.snapshotMagic.count + header.count
            for entry in tables {
                let frame = try JournalFrame.Prepared(payload: entry.payload).sealed(sequence: entry.sequence)
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
        var directoryKeys: [ChangeKey] = []
        if let keys = header["keys"] {
            guard case .array(let values) = keys else { throw damaged("unreadable keys") }
            for value in values {
                do throws(ValidationError) {
                    directoryKeys.append(try ChangeKey(from: value))
                } catch {
                    throw damaged("unreadable key")
                }
            }
        }
        var tables: [SnapshotTable] = []
        for _ in 0..<count {
            let frame = try nextFrame()
            tables.append(
                try SnapshotTable(
                    document: JournalRecord.parse(bytes[frame.payload]), sequence: frame.sequence,
                    in: "snapshot \(path)")
            )
        }
        guard offset == bytes.count else { throw damaged("\(bytes.count - offset) bytes after the last table") }
        return JournalSnapshot(
            segment: segment, listedSequence: headerFrame.sequence, tables: tables, directoryKeys: directoryKeys)
    }
}

extension SnapshotTable {
    /// The table's document: its Table document, or `{"table", "keys"}` when
    /// it has keys — a frame of a journal snapshot, a snapshot row in the
    /// database.
    public var payload: [UInt8] {
        guard !keys.isEmpty else { return table.recordedJSONBytes }
        var writer = JSONWriter(reservingCapacity: table.estimatedJSONCount + keys.count * 256)
        writer.beginObject()
        writer.key("table"); table.writeJSON(to: &writer, withAccess: true)
        writer.key("keys")
        writer.array { writer in
            for entry in keys {
                writer.beginObject()
                writer.key("idempotency"); entry.key.writeJSON(to: &writer)
                writer.key("version"); writer.integer(entry.version)
                writer.key("changes")
                writer.array { writer in
                    for change in entry.changes { writer.string(String(decoding: change, as: UTF8.self)) }
                }
                writer.endObject()
            }
        }
        writer.endObject()
        return writer.bytes
    }
}

extension SnapshotTable {
    /// Reads `payload` back; `source` names where it was read in an error.
    public init(document value: JSONValue, sequence: UInt64, in source: String) throws(JournalError) {
        guard case .object(let object) = value, object.members.count == 2, let table = object["table"],
            case .array(let keys) = object["keys"]
        else {
            self.init(table: try JournalRecord.table(from: value), sequence: sequence)
            return
        }
        self.init(
            table: try JournalRecord.table(from: table), sequence: sequence,
            keys: try keys.map { (key) throws(JournalError) in try SnapshotKey(from: key, in: source) })
    }
}

extension SnapshotKey {
    init(from value: JSONValue, in source: String) throws(JournalError) {
        let damaged = JournalError(.damaged, "\(source): unreadable idempotency key")
        guard case .object(let object) = value, let key = object["idempotency"],
            case .integer(let version) = object["version"], case .array(let changes) = object["changes"]
        else { throw damaged }
        var texts: [[UInt8]] = []
        for change in changes {
            guard case .string(let text) = change else { throw damaged }
            texts.append(Array(text.utf8))
        }
        do throws(ValidationError) {
            self.init(key: try ChangeKey(from: key), version: version, changes: texts)
        } catch {
            throw damaged
        }
    }
}
