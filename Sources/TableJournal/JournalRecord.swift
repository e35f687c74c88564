import JSON
import TableModel

/// One change to the server's set of tables, as the journal holds it.
///
/// Payloads are JSON: `{"create": Table}` (the Table document of docs/FORMAT.md, with its
/// `version`), `{"table": "t", "changes": [{"version": 8, "batch": {...}}, ...]}`
/// (the changes as `/changes` publishes them, each with the `Idempotency-Key`
/// it was made under when it was, `ChangeKey`, and who made it when that is
/// known, `ChangeActor`), or `{"delete": "t"}`. A create
/// or a delete made under an `Idempotency-Key` carries it as a second member,
/// `"idempotency"`.
public enum JournalRecord: Sendable, Equatable {
    /// A table added (`POST /api/tables`, or a seed table at start-up), at its
    /// version, with the key of the request that created it.
    case create(Table, key: ChangeKey? = nil)
    /// One request's changes to a table, in order: one for a batch or a PATCH,
    /// several for a snapshot `PUT`. One record, so they are kept or lost together.
    case changes(tableID: String, [JournalChange])
    /// A table deleted, with the key of the request that deleted it.
    case delete(tableID: String, key: ChangeKey? = nil)

    /// The `Idempotency-Key` of a create or a delete.
    var directoryKey: ChangeKey? {
        switch self {
        case .create(_, let key), .delete(_, let key): key
        case .changes: nil
        }
    }
}

/// One applied batch and the version it made: replaying `batch` with
/// `Table.apply(_:)` on the table at `version - 1` rebuilds the table at `version`.
public struct JournalChange: Sendable, Equatable {
    public var version: Int
    public var batch: Batch
    /// The `Idempotency-Key` the change was made under, when it was.
    public var key: ChangeKey?
    /// Who made it (`ChangeActor`), when that is known.
    public var actor: String?

    public init(version: Int, batch: Batch, key: ChangeKey? = nil, actor: String? = nil) {
        self.version = version
        self.batch = batch
        self.key = key
        self.actor = actor
    }
}

/// A record encoded for writing.
public struct JournalEntry: Sendable {
    let payload: [UInt8]
    /// The `Idempotency-Key` of a create or a delete, which the journal keeps
    /// for its snapshots (`Journal.Writer.directoryKeys`).
    let directoryKey: ChangeKey?

    /// A table added, at its version, under `key` when the request sent one.
    public static func create(_ table: Table, key: ChangeKey? = nil) -> JournalEntry {
        var writer = JSONWriter(reservingCapacity: table.estimatedJSONCount)
        writer.beginObject()
        writer.key("create"); table.writeJSON(to: &writer, withAccess: true)
        if let key { writer.key("idempotency"); key.writeJSON(to: &writer) }
        writer.endObject()
        return JournalEntry(payload: writer.bytes, directoryKey: key)
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
        return JournalEntry(payload: writer.bytes, directoryKey: nil)
    }

    /// A table deleted, under `key` when the request sent one.
    public static func delete(tableID: String, key: ChangeKey? = nil) -> JournalEntry {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("delete"); writer.string(tableID)
        if let key { writer.key("idempotency"); key.writeJSON(to: &writer) }
        writer.endObject()
        return JournalEntry(payload: writer.bytes, directoryKey: key)
    }

    /// `record`, encoded.
    public init(_ record: JournalRecord) {
        switch record {
        case .create(let table, let key): self = .create(table, key: key)
        case .changes(let id, let changes):
            self = .changes(
                tableID: id,
                changeJSON: changes.map { change in
                    var json = change.batch.changeJSONBytes(version: change.version, withAccess: true)
                    if let key = change.key { json = key.appended(to: json) }
                    if let actor = change.actor { json = ChangeActor.appending(actor, to: json) }
                    return json
                })
        case .delete(let id, let key): self = .delete(tableID: id, key: key)
        }
    }

    private init(payload: [UInt8], directoryKey: ChangeKey?) {
        self.payload = payload
        self.directoryKey = directoryKey
    }
}

extension JournalRecord {
    /// Decodes a record's payload; `.damaged` when it is not a record this journal writes.
    init(payload: ArraySlice<UInt8>) throws(JournalError) {
        guard case .object(let object) = try Self.parse(payload) else { throw Self.malformed("not an object") }
        let key = try Self.directoryKey(in: object)
        if let table = object["create"], object.members.count == (key == nil ? 1 : 2) {
            self = .create(try Self.table(from: table), key: key)
        } else if case .string(let id) = object["delete"], object.members.count == (key == nil ? 1 : 2) {
            self = .delete(tableID: id, key: key)
        } else if case .string(let id) = object["table"], case .array(let values) = object["changes"],
            object.members.count == 2, !values.isEmpty
        {
            var changes: [JournalChange] = []
            for value in values {
                do throws(ValidationError) {
                    let change = try RecordedDecoding.change(from: value)
                    changes.append(
                        JournalChange(
                            version: change.version, batch: change.batch, key: change.key, actor: change.actor))
                } catch {
                    throw Self.malformed("change \(changes.count): \(Self.firstIssue(error))")
                }
            }
            self = .changes(tableID: id, changes)
        } else {
            throw Self.malformed("unknown record")
        }
    }

    /// The `"idempotency"` member of a create or a delete, when it has one.
    private static func directoryKey(in object: JSONObject) throws(JournalError) -> ChangeKey? {
        guard let value = object["idempotency"] else { return nil }
        do throws(ValidationError) {
            return try ChangeKey(from: value)
        } catch {
            throw malformed("idempotency: \(firstIssue(error))")
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
