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

    /// The first member of an `If-Match` or `If-None-Match` field that is
    /// neither `*` nor an entity tag (`"7"`, `W/"7"`; RFC 9110, 8.8.3): `7` in
    /// `If-Match: 7`, which names no entity tag. nil when every member is one.
    /// A quoted tag may hold a comma (`"a,b"` is one tag), so the field is
    /// read as quoted strings, not split at commas.
    public static func firstMalformed(in field: String) -> Substring? {
        let bytes = field.utf8
        var index = bytes.startIndex
        func skip(_ allowed: (UInt8) -> Bool) {
            while index < bytes.endIndex, allowed(bytes[index]) { index = bytes.index(after: index) }
        }
        while true {
            skip { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ",") }
            guard index < bytes.endIndex else { return nil }
            let start = index
            if bytes[index] == UInt8(ascii: "*") {
                index = bytes.index(after: index)
            } else {
                if bytes[index...].starts(with: "W/".utf8) { index = bytes.index(index, offsetBy: 2) }
                guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else {
                    return malformed(field, from: start)
                }
                index = bytes.index(after: index)
                skip(isEntityTagCharacter)
                guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else {
                    return malformed(field, from: start)
                }
                index = bytes.index(after: index)
            }
            skip { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard index == bytes.endIndex || bytes[index] == UInt8(ascii: ",") else {
                return malformed(field, from: start)
            }
        }
    }

    /// RFC 9110 `etagc`: what a quoted entity tag holds (`!`, `#`…`~`, and bytes from 0x80).
    private static func isEntityTagCharacter(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x7E).contains(byte) || byte >= 0x80
    }

    /// The member that starts at `start`: up to the next comma, without the spaces around it.
    private static func malformed(_ field: String, from start: String.Index) -> Substring {
        let rest = field[start...]
        return trimmed(rest[..<(rest.firstIndex(of: ",") ?? rest.endIndex)])
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) })
        else {
            return text[text.startIndex..<text.startIndex]
        }
        return text[start...end]
    }
}
