import MicroHTTP
import TableModel

/// Entity tags of table answers: the table's version, quoted (`"7"`); of
/// answers made from several tables, a hash of the body.
enum ETag {
    static func string(for version: Int) -> String { "\"\(version)\"" }

    /// True when an `If-None-Match` header names this version (or is `*`).
    static func matches(_ ifNoneMatch: String?, version: Int) -> Bool {
        matches(ifNoneMatch, tag: string(for: version))
    }

    /// True when an `If-None-Match` header names `tag` (or is `*`).
    static func matches(_ ifNoneMatch: String?, tag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        return EntityTagList(ifNoneMatch).matchesWeakly(tag)
    }
}

extension ETag {
    /// The tag of a view's answer: the table's version and a hash of the view's
    /// one spelling (`"7-v3f2a…"`), the same on every replica.
    static func string(for version: Int, view: TableQuery) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in view.canonicalQuery.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return "\"\(version)-v\(String(hash, radix: 16))\""
    }
}
