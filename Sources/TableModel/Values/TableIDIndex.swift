/// The ids in use in one table, kept beside its sections so that a batch can check
/// that its inserted ids stay unique without walking the whole table.
public struct TableIDIndex: Sendable, Equatable {
    public internal(set) var sectionIDs: Set<String> = []
    public internal(set) var rowIDs: Set<String> = []

    public init() {}

    /// Collects the ids of `sections`; a duplicate simply counts once (validation
    /// refuses duplicates before a table is built). The rows' ids are counted first,
    /// so that the set is allocated once at its size rather than grown by doubling
    /// (the last growth held both tables: 48 MiB at a million ids).
    public init(_ sections: [Section]) {
        rowIDs.reserveCapacity(sections.reduce(0) { $0 + $1.rows.reduce(0) { $1.id == nil ? $0 : $0 + 1 } })
        for section in sections {
            if let id = section.id { sectionIDs.insert(id) }
            for row in section.rows {
                if let id = row.id { rowIDs.insert(id) }
            }
        }
    }
}

extension TableIDIndex {
    /// Takes in what one batch changed: first the ids that left the table, then
    /// those that joined it, so an id freed and reused by the same batch stays.
    mutating func update(_ changes: IDChanges) {
        for id in changes.removedSectionIDs { sectionIDs.remove(id) }
        for id in changes.removedRowIDs { rowIDs.remove(id) }
        sectionIDs.formUnion(changes.addedSectionIDs)
        rowIDs.formUnion(changes.addedRowIDs)
    }
}
