extension JSONValue {
    /// This document with `patch` applied as a JSON Merge Patch (RFC 7396 §2):
    /// a patch that is an object changes only the members it names — a member
    /// whose value is `null` is removed, an object member is merged into the
    /// target's member of that name, any other value replaces it — and a patch
    /// that is not an object replaces the whole document. Members keep their
    /// place; new ones are appended in the patch's order.
    public func mergePatched(by patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var merged: JSONObject
        if case .object(let object) = self { merged = object } else { merged = JSONObject() }
        for member in changes.members {
            if member.value == .null {
                merged[member.key] = nil
            } else {
                merged[member.key] = (merged[member.key] ?? .null).mergePatched(by: member.value)
            }
        }
        return .object(merged)
    }
}
