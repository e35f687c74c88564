import HashTreeCollections

/// The ids in use in one table, kept beside its sections so that a batch can check
/// that its inserted ids stay unique without walking the whole table.
///
/// The sets are persistent hash tries (swift-collections' `TreeSet`): a copy
/// shares every node, and a change to it copies only the nodes on the path to
/// the id, O(log ids). A table held elsewhere (a reader's snapshot, a client's
/// data source) therefore costs the next edit nothing more than that path,
/// where a `Set` shared that way was copied whole, O(ids), by the first insert
/// or delete of a row with an id.
public struct TableIDIndex: Sendable, Equatable {
    public internal(set) var sectionIDs: TreeSet<String> = []
    public internal(set) var rowIDs: TreeSet<String> = []

    public init() {}

    /// Collects the ids of `sections`; a duplicate simply counts once (validation
    /// refuses duplicates before a table is built).
    public init(_ sections: [Section]) {
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
    /// batch that changes no id does not touch the set at all.
    private static func update(_ ids: inout TreeSet<String>, removing removed: [String], adding added: [String]) {
        guard !(removed.isEmpty && added.isEmpty) else { return }
        let kept = removed.isEmpty || added.isEmpty ? [] : Set(removed).intersection(added)
        for id in removed where !kept.contains(id) { ids.remove(id) }
        for id in added where !kept.contains(id) { ids.insert(id) }
    }
}
