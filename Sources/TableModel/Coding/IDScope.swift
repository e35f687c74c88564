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
    /// The rows of the section being decoded, until its first row id is recorded.
    private var expectedRows = 0

    /// Rows of a section are about to be decoded: the first of their ids reserves room
    /// for all of them, so that a million ids are not rehashed by doubling (the last
    /// growth held both tables while the document and the rows were in memory too).
    mutating func expectRows(_ count: Int) {
        expectedRows = count
    }

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
        if expectedRows > 0 {
            rowIDs.reserveCapacity(rowIDs.count + expectedRows)
            expectedRows = 0
        }
        rowIDs[id] = (section, row)
        return nil
    }
}
