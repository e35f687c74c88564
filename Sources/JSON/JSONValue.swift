/// A parsed JSON document, kept exactly as written: numbers keep their literal
/// and object members keep their order (duplicate keys are refused by the parser).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number that `Int` holds and writes the same way (`42`, `-7`).
    case integer(Int)
    /// Any other number, as it was written (`1.50`, `1e3`, `-0`, `12345678901234567890`);
    /// ``double(_:)`` makes one from a computed `Double`.
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object whose members keep the order they were written in.
public struct JSONObject: Sendable, Hashable {
    public var members: [JSONMember]

    public init(_ members: [JSONMember] = []) { self.members = members }

    /// The value of the member named `key`, if any (objects are small: a linear scan).
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(JSONMember(key, newValue))
            }
        }
    }

    public var keys: [String] { members.map(\.key) }
    public var isEmpty: Bool { members.isEmpty }
}
