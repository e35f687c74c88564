import MicroHTTP

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
