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
    /// Takes in what one batch changed: the ids that left the table and those
    /// that joined it, so an id freed and reused by the same batch stays.
    mutating func update(_ changes: IDChanges) {
        Self.update(&sectionIDs, removing: changes.removedSectionIDs, adding: changes.addedSectionIDs)
        Self.update(&rowIDs, removing: changes.removedRowIDs, adding: changes.addedRowIDs)
    }

    /// An id both removed and added (a reload keeps its id) is left alone, so a
    /// batch that changes no id does not touch the set: a set shared with a
    /// copy of the table (a reader's snapshot, a client's data source) is then
    /// not copied whole, O(ids), for a one-row reload.
    private static func update(_ ids: inout Set<String>, removing removed: [String], adding added: [String]) {
        guard !(removed.isEmpty && added.isEmpty) else { return }
        let kept = removed.isEmpty || added.isEmpty ? [] : Set(removed).intersection(added)
        for id in removed where !kept.contains(id) { ids.remove(id) }
        for id in added where !kept.contains(id) { ids.insert(id) }
    }
}
