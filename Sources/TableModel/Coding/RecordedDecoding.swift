import JSON

/// Reads back what a durable log (the journal, or the database replicas share)
/// recorded: changes as `{"version": 8, "batch": {...}}`, exactly as `/changes`
/// publishes them (with their `idempotency` and `actor` when they have them),
/// and Table documents with their `version`.
///
/// The limits are open: a record is never refused because `--max-field-bytes`
/// was lowered after it was written.
public enum RecordedDecoding {
    public static let limits = ModelLimits(
        maxFieldBytes: .max, maxIDLength: .max, maxURLBytes: .max, maxCustomFields: .max, maxColumns: .max,
        maxIndentationLevel: .max, maxRowHeight: .greatestFiniteMagnitude, maxIssues: 10)

    /// Request bodies nest up to `JSONParser.defaultMaxDepth`; a record wraps them in a few more levels.
    public static let parser = JSONParser(maxDepth: JSONParser.defaultMaxDepth + 8)

    /// One change: the version it made, its batch, the `Idempotency-Key` it
    /// was made under, when it was (`ChangeKey`), and who made it, when that
    /// is known (`ChangeActor`).
    public static func change(
        from value: JSONValue
    ) throws(ValidationError) -> (version: Int, batch: Batch, key: ChangeKey?, actor: String?) {
        guard case .object(let change) = value,
            change.members.count == 2 + (change["idempotency"] == nil ? 0 : 1) + (change["actor"] == nil ? 0 : 1),
            case .integer(let version) = change["version"], let batch = change["batch"]
        else { throw issue("$", "a change is not {\"version\", \"batch\"} (and its \"idempotency\" and \"actor\")") }
        var key: ChangeKey?
        if let stored = change["idempotency"] { key = try ChangeKey(from: stored) }
        let actor = try ChangeActor.read(from: change)
        return (version, try ModelDecoder.recordedBatch(from: batch, limits: limits), key, actor)
    }

    /// A Table document with its `version`, as `Table.writeJSON` writes it.
    public static func table(from value: JSONValue) throws(ValidationError) -> Table {
        guard case .object(let object) = value, case .integer(let version) = object["version"], version >= 0 else {
            throw issue("$.version", "a table without its version")
        }
        var table = try ModelDecoder.recordedTable(from: value, limits: limits)
        table.version = version
        return table
    }

    private static func issue(_ path: String, _ message: String) -> ValidationError {
        ValidationError(issues: [ValidationIssue(path: path, message: message)])
    }
}
