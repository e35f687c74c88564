/// The entity tags of an `If-Match` or `If-None-Match` field (RFC 9110,
/// 13.1.1 and 13.1.2): a comma-separated list of tags, or `*`. The one parser
/// of such lists, for the static files, the content codings' tags and the
/// tables' versions.
public struct EntityTagList: Sendable {
    /// The tags as written (`"7"`, `W/"7"`, `*`), without the spaces or tabs around them.
    public let tags: [Substring]

    public init(_ field: String) {
        tags = field.split(separator: ",").map(Self.trimmed)
    }

    /// `If-None-Match`: true when the list is `*` or names `tag`, weakly too
    /// (`W/"7"` names `"7"`: the weak comparison).
    public func matchesWeakly(_ tag: String) -> Bool {
        tags.contains { $0 == "*" || $0 == tag || ($0.hasPrefix("W/") && $0.dropFirst(2) == tag) }
    }

    /// `If-Match`: true when the list is `*` or names `tag` exactly (the strong comparison).
    public func matchesStrongly(_ tag: String) -> Bool {
        tags.contains { $0 == "*" || $0 == tag }
    }

    /// The first tag that is neither `*` nor quoted (`"7"`, `W/"7"`): `7` in
    /// `If-Match: 7`, which names no entity tag (RFC 9110, 8.8.3).
    public var firstMalformed: Substring? {
        tags.first { tag in
            let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
            let isQuoted = opaque.count >= 2 && opaque.first == "\"" && opaque.last == "\"" && !opaque.dropFirst().dropLast().contains("\"")
            return tag != "*" && !isQuoted
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) }) else {
            return text[text.startIndex..<text.startIndex]
        }
        return text[start...end]
    }
}
