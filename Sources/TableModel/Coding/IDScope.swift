/// The section and row ids seen so far in one document (a table, or a section's
/// rows), so that a duplicate is reported with the path of its first use.
///
/// Sections and rows have separate namespaces, as in `TableIDIndex`. Paths are
/// kept as positions and rendered only when a duplicate is found.
struct IDScope {
    /// The path of each section of the scope, in the order they were met.
    private var sectionPaths: [[PathComponent]] = []
    private var sectionIDs: [String: Int] = [:]
    private var rowIDs: [String: (section: Int, row: Int)] = [:]

    /// Starts a section at `path`; answers its number within the scope.
    mutating func beginSection(at path: [PathComponent]) -> Int {
        sectionPaths.append(path)
        return sectionPaths.count - 1
    }

    /// Records a section id; answers the path of its first use when it is a duplicate.
    mutating func register(sectionID id: String, section: Int) -> String? {
        if let first = sectionIDs[id] {
            return DecodingContext.render(sectionPaths[first])
        }
        sectionIDs[id] = section
        return nil
    }

    /// Records a row id; answers the path of its first use when it is a duplicate.
    mutating func register(rowID id: String, section: Int, row: Int) -> String? {
        if let first = rowIDs[id] {
            return DecodingContext.render(sectionPaths[first.section] + [.key("rows"), .index(first.row)])
        }
        rowIDs[id] = (section, row)
        return nil
    }
}
