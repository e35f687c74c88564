import JSON

/// The `Idempotency-Key` a change was made under, stored with the change
/// (docs/RELIABILITY.md, the journal's payloads; docs/API.md, "Idempotency-Key"): a change
/// record is `{"version", "batch", "idempotency": {...}}` then, and a server
/// that replays it knows the key was used, for which request, and what it
/// answered.
public struct ChangeKey: Sendable, Equatable {
    /// The header's value.
    public var key: String
    /// The fingerprint of the request (method, path, query, body).
    public var digest: String
    /// When the edit was made, in seconds since 1970: the key is kept for a
    /// stated time after that.
    public var madeAt: Int
    /// The first version of a snapshot `PUT`'s changes, which the key's record
    /// (the last of them) answers together; nil for an edit answered with its
    /// one change.
    public var firstVersion: Int?

    /// How long a key is kept after its edit, in seconds: 24 hours
    /// (docs/API.md, "Idempotency-Key").
    public static let lifetime = 24 * 60 * 60
    /// How many keys a table keeps, and how many the creates and deletes of
    /// tables keep together.
    public static let capacity = 10_000

    public init(key: String, digest: String, madeAt: Int, firstVersion: Int? = nil) {
        self.key = key
        self.digest = digest
        self.madeAt = madeAt
        self.firstVersion = firstVersion
    }

    /// `changeJSON` (`{"version", "batch"}`) with this key as its third member.
    public func appended(to changeJSON: [UInt8]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: key.utf8.count + 96)
        writeJSON(to: &writer)
        return ChangeActor.appending(member: "idempotency", writer.bytes, to: changeJSON)
    }

    /// Writes `{"key", "digest", "madeAt", "firstVersion"?}`, the `idempotency` member.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("key"); writer.string(key)
        writer.key("digest"); writer.string(digest)
        writer.key("madeAt"); writer.integer(madeAt)
        if let firstVersion { writer.key("firstVersion"); writer.integer(firstVersion) }
        writer.endObject()
    }

    /// Reads the `idempotency` member of a stored change.
    public init(from value: JSONValue) throws(ValidationError) {
        guard case .object(let object) = value, case .string(let key) = object["key"],
            case .string(let digest) = object["digest"], case .integer(let madeAt) = object["madeAt"]
        else { throw ValidationError(issues: [ValidationIssue(path: "$.idempotency", message: "not a stored key")]) }
        var firstVersion: Int?
        if case .integer(let first) = object["firstVersion"] { firstVersion = first }
        self.init(key: key, digest: digest, madeAt: madeAt, firstVersion: firstVersion)
    }
}
