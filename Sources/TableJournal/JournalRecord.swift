import JSON
import TableModel

/// One change to the server's set of tables, as the journal holds it.
///
/// Payloads are JSON: `{"create": Table}` (the Table document of docs/FORMAT.md, with its
/// `version`), `{"table": "t", "changes": [{"version": 8, "batch": {...}}, ...]}`
/// (the changes as `/changes` publishes them, each with the `Idempotency-Key`
/// it was made under when it was: `ChangeKey`), or `{"delete": "t"}`.
public enum JournalRecord: Sendable, Equatable {
    /// A table added (`POST /api/tables`, or a seed table at start-up), at its version.
    case create(Table)
    /// One request's changes to a table, in order: one for a batch or a PATCH,
    /// several for a snapshot `PUT`. One record, so they are kept or lost together.
    case changes(tableID: String, [JournalChange])
    /// A table deleted.
    case delete(tableID: String)
}

/// One applied batch and the version it made: replaying `batch` with
/// `Table.apply(_:)` on the table at `version - 1` rebuilds the table at `version`.
public struct JournalChange: Sendable, Equatable {
    public var version: Int
    public var batch: Batch
    /// The `Idempotency-Key` the change was made under, when it was.
    public var key: ChangeKey?

    public init(version: Int, batch: Batch, key: ChangeKey? = nil) {
        self.version = version
        self.batch = batch
        self.key = key
    }
}

/// A record encoded for writing.
public struct JournalEntry: Sendable {
    let payload: [UInt8]

    /// A table added, at its version.
    public static func create(_ table: Table) -> JournalEntry {
        var writer = JSONWriter(reservingCapacity: table.estimatedJSONCount)
        writer.beginObject()
        writer.key("create"); table.writeJSON(to: &writer)
        writer.endObject()
        return JournalEntry(payload: writer.bytes)
    }

    /// Changes to table `tableID`, each already encoded as `{"version", "batch"}`
    /// (`Batch.changeJSONBytes(version:)`), so the store's published JSON is reused as is.
    public static func changes(tableID: String, changeJSON: [[UInt8]]) -> JournalEntry {
        var writer = JSONWriter(reservingCapacity: 64 + changeJSON.reduce(0) { $0 + $1.count })
        writer.beginObject()
        writer.key("table"); writer.string(tableID)
        writer.key("changes")
        writer.array { writer in for json in changeJSON { writer.rawValue(json) } }
        writer.endObject()
        return JournalEntry(payload: writer.bytes)
    }

    /// A table deleted.
    public static func delete(tableID: String) -> JournalEntry {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("delete"); writer.string(tableID)
        writer.endObject()
        return JournalEntry(payload: writer.bytes)
    }

    /// `record`, encoded.
    public init(_ record: JournalRecord) {
        switch record {
        case .create(let table): self = .create(table)
        case .changes(let id, let changes):
            self = .changes(
                tableID: id,
                changeJSON: changes.map { change in
                    let json = change.batch.changeJSONBytes(version: change.version)
                    return change.key?.appended(to: json) ?? json
                })
        case .delete(let id): self = .delete(tableID: id)
        }
    }

    private init(payload: [UInt8]) {
        self.payload = payload
    }
}

extension JournalRecord {
    /// Decodes a record's payload; `.damaged` when it is not a record this journal writes.
    init(payload: ArraySlice<UInt8>) throws(JournalError) {
        guard case .object(let object) = try Self.parse(payload) else { throw Self.malformed("not an object") }
        if let table = object["create"], object.members.count == 1 {
            self = .create(try Self.table(from: table))
        } else if case .string(let id) = object["delete"], object.members.count == 1 {
            self = .delete(tableID: id)
        } else if case .string(let id) = object["table"], case .array(let values) = object["changes"],
            object.members.count == 2, !values.isEmpty
        {
            var changes: [JournalChange] = []
            for value in values {
                do throws(ValidationError) {
                    let change = try RecordedDecoding.change(from: value)
                    changes.append(JournalChange(version: change.version, batch: change.batch, key: change.key))
                } catch {
                    throw Self.malformed("change \(changes.count): \(Self.firstIssue(error))")
                }
            }
            self = .changes(tableID: id, changes)
        } else {
            throw Self.malformed("unknown record")
        }
    }

    /// A Table document with its `version`, as `Table.writeJSON` writes it.
    static func table(from value: JSONValue) throws(JournalError) -> Table {
        do throws(ValidationError) {
            return try RecordedDecoding.table(from: value)
        } catch {
            throw malformed("table: \(firstIssue(error))")
        }
    }

    static func parse(_ payload: ArraySlice<UInt8>) throws(JournalError) -> JSONValue {
        do {
            return try RecordedDecoding.parser.parse(payload)
        } catch {
            throw malformed("\(error)")
        }
    }

    private static func firstIssue(_ error: ValidationError) -> String {
        error.issues.first.map { "\($0.path): \($0.message)" } ?? ""
    }

    private static func malformed(_ detail: String) -> JournalError {
        JournalError(.damaged, "record with a valid checksum but unreadable content (\(detail))")
    }
}
