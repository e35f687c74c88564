import JSON

/// Who made a change, stored with it (docs/ACCESS.md, "Audit"): the `sub`
/// of the requester whose request made it, as the last member of the change
/// record, `{"version", "batch", "idempotency"?, "actor": "ana"}`. A change
/// made without a known requester (anonymous, or recorded before audit
/// existed) has no `actor`. The journal and the replicas' database keep the
/// record as it is; the change feed shows the member to the table's admins
/// only.
public enum ChangeActor {
    /// `changeJSON` (a JSON object) with `actor` as its last member.
    public static func appending(_ actor: String, to changeJSON: [UInt8]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: actor.utf8.count + 16)
        writer.string(actor)
        return appending(member: "actor", writer.bytes, to: changeJSON)
    }

    /// `changeJSON` (a JSON object) with one more member, `key`, whose value
    /// is the JSON `value`: a stored change's `idempotency` and `actor`.
    static func appending(member key: String, _ value: [UInt8], to changeJSON: [UInt8]) -> [UInt8] {
        precondition(changeJSON.last == UInt8(ascii: "}"), "a change is a JSON object")
        var json = Array(changeJSON.dropLast())
        json.reserveCapacity(changeJSON.count + key.utf8.count + value.count + 8)
        json += #","\#(key)":"#.utf8
        json += value
        json.append(UInt8(ascii: "}"))
        return json
    }

    /// The `actor` member of a stored change, when it has one.
    static func read(from change: JSONObject) throws(ValidationError) -> String? {
        switch change["actor"] {
        case nil: return nil
        case .string(let actor)?: return actor
        default:
            throw ValidationError(issues: [ValidationIssue(path: "$.actor", message: "an actor is a string")])
        }
    }
}
