import JSON

/// One step of a JSON path: an object member or an array element.
enum PathComponent: Sendable {
    case key(String)
    case index(Int)
}

/// The state of one strict decoding: where in the document it is, and the
/// issues found so far. Decoding never stops at an issue; every reader reports
/// what it finds and answers nil (or a default), and the caller throws at the end
/// when anything was reported.
///
/// The path is a stack of components, turned into text only for an issue, so a
/// valid document costs no string building.
struct DecodingContext {
    let limits: ModelLimits
    private(set) var issues: [ValidationIssue] = []
    /// Issues found beyond `limits.maxIssues`.
    private var unreported = 0
    private(set) var path: [PathComponent] = []
    /// Whether a batch may carry `press`: only a recorded change does (a press is
    /// made by `…/press`, never sent in a batch).
    var acceptsPress = false
    /// Whether a batch's properties may carry `access`: only a recorded
    /// change does (a snapshot `PUT` sets it; no batch sent does).
    var acceptsAccess = false
    /// Whether a section may carry `groupValue`: only a view's group section,
    /// as the server wrote it, does (a table's sections have none).
    var acceptsGroupValue = false

    init(limits: ModelLimits) {
        self.limits = limits
    }

    /// Runs `body` one member deeper in the document.
    mutating func at<Result>(_ key: String, _ body: (inout DecodingContext) -> Result) -> Result {
        path.append(.key(key))
        defer { path.removeLast() }
        return body(&self)
    }

    /// Runs `body` one array element deeper in the document.
    mutating func at<Result>(index: Int, _ body: (inout DecodingContext) -> Result) -> Result {
        path.append(.index(index))
        defer { path.removeLast() }
        return body(&self)
    }

    /// Records an issue at the current path.
    mutating func report(_ message: String) {
        guard issues.count < limits.maxIssues else {
            unreported += 1
            return
        }
        issues.append(ValidationIssue(path: Self.render(path), message: message))
    }

    /// The decoded value, or every issue found while decoding it.
    func result<Value>(_ value: Value?) throws(ValidationError) -> Value {
        var issues = issues
        if unreported > 0 {
            issues.append(ValidationIssue(path: "$", message: "\(unreported) more issues not shown"))
        }
        guard issues.isEmpty, let value else {
            throw ValidationError(issues: issues.isEmpty ? [ValidationIssue(path: "$", message: "invalid")] : issues)
        }
        return value
    }

    /// `$.sections[1].rows[3]`; keys that are not plain names (RFC 9535 shorthand:
    /// letters, digits and `_`, not starting with a digit) are bracketed: `$.fields["a-b"]`.
    static func render(_ path: some Sequence<PathComponent>) -> String {
        var text = "$"
        for component in path {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where isPlainName(key):
                text += ".\(key)"
            case .key(let key):
                text += "[" + String(decoding: JSONValue.string(key).jsonBytes, as: UTF8.self) + "]"
            }
        }
        return text
    }

    private static func isPlainName(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }

    /// Walks the members of an object, handing each to `decode` one level deeper;
    /// `decode` answers false for a key it does not know, which is reported as an
    /// unknown field. Answers false when `value` is not an object.
    @discardableResult
    mutating func members(
        of value: JSONValue, _ decode: (inout DecodingContext, String, JSONValue) -> Bool
    ) -> Bool {
        guard case .object(let object) = value else {
            report("expected an object, found \(value.kindDescription)")
            return false
        }
        for member in object.members where !at(member.key, { decode(&$0, member.key, member.value) }) {
            report("unknown field \(Self.quote(member.key))")
        }
        return true
    }

    /// Reports a required member that is missing.
    mutating func reportMissing(_ key: String) {
        report("missing required field \(Self.quote(key))")
    }

    /// `"text"` as quoted in a message: JSON-escaped, at most 64 characters.
    static func quote(_ text: String) -> String {
        let excerpt = text.unicodeScalars.count <= 64 ? text : String(text.unicodeScalars.prefix(64)) + "…"
        return String(decoding: JSONValue.string(excerpt).jsonBytes, as: UTF8.self)
    }
}
