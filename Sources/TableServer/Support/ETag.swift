/// Entity tags of table answers: the table's version, quoted (`"7"`).
enum ETag {
    static func string(for version: Int) -> String { "\"\(version)\"" }

    /// True when an `If-None-Match` header names this version (or is `*`).
    static func matches(_ ifNoneMatch: String?, version: Int) -> Bool {
        guard let ifNoneMatch else { return false }
        let tag = string(for: version)
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingSpaces()
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }
}
