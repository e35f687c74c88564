import JSON
import Mustache

/// A row's `fields` as a custom cell template reads them: strings HTML-escaped
/// (print them with `{{{fields.name}}}`), numbers as written, booleans for sections,
/// arrays as lists and objects as nested contexts; `null` renders nothing.
struct JSONObjectContext: MustacheParent {
    private let object: JSONObject

    init(_ object: JSONObject) { self.object = object }

    func child(named name: String) -> Any? {
        object[name].map(Self.mustacheValue)
    }

    static func mustacheValue(_ value: JSONValue) -> Any {
        switch value {
        case .null: JSONNull()
        case .bool(let flag): flag
        case .integer(let number): String(number)
        case .number(let number): number.literal
        case .string(let text): HTMLEscaping.escape(text)
        case .array(let items): items.map(mustacheValue)
        case .object(let object): JSONObjectContext(object)
        }
    }
}

/// JSON `null`: a false section, an empty variable.
struct JSONNull: MustacheCustomRenderable {
    var renderText: String { "" }
    var isNull: Bool { true }
}
