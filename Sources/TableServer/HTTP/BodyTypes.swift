/// The media types a route takes its body as (docs/API.md, "Content types"):
/// named in the `detail` of its 415 and in that answer's `Accept` header (RFC
/// 9110 §15.5.16), and `Accept-Patch` for a merge patch (RFC 5789 §2.2).
enum BodyTypes: Sendable {
    /// JSON: `application/json`, or any `application/…+json`.
    case json
    /// A table: JSON, or CSV with a header row (`text/csv`).
    case jsonOrCSV
    /// A JSON Merge Patch (RFC 7396): `application/merge-patch+json`, or plain JSON.
    case mergePatch

    /// The types, most specific first.
    var mediaTypes: [String] {
        switch self {
        case .json: ["application/json"]
        case .jsonOrCSV: ["application/json", "text/csv"]
        case .mergePatch: ["application/merge-patch+json", "application/json"]
        }
    }

    /// `a`, `a or b`, as a sentence names them.
    var names: String { mediaTypes.joined(separator: " or ") }

    /// Whether `mediaType` (lowercased, without parameters) is read as JSON.
    static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }
}
