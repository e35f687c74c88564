import TableModel

/// Edits by id, as a `UITableViewDiffableDataSource`'s snapshot is edited
/// (docs/API.md, "Edits by id"). The server turns each into one index batch;
/// each answers the change it published.
extension TableClient {
    /// `POST /api/tables/{t}/batch-by-id`: the edits in order, as one version.
    public func apply(_ batch: IdentifiedBatch, in id: String, ifMatch: Int? = nil) async throws(TableClientError)
        -> TableChange
    {
        try await change(.edit("POST", Self.tablePath(id) + "/batch-by-id", batch.jsonBytes, ifMatch: ifMatch))
    }

    /// `POST /api/tables/{t}/items`: `insertItems(_:beforeItem:)`, `…afterItem:`, `appendItems(_:toSection:)`.
    public func insertItems(
        _ rows: [Row], _ place: IdentifiedEdit.ItemPlace, in id: String,
        animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let body = Self.document { writer in
            writer.key("rows")
            writer.array { writer in for row in rows { row.writeJSON(to: &writer) } }
            place.writeMembers(to: &writer)
        }
        let path = Self.tablePath(id) + "/items"
        return try await change(.edit("POST", path, body, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `DELETE /api/tables/{t}/items/{rowID}`.
    public func deleteItem(
        _ rowID: String, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        try await change(.edit("DELETE", Self.itemPath(id, rowID), animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `PUT /api/tables/{t}/items/{rowID}`: `reloadItems`, the row named by its id.
    public func reloadItem(
        _ row: Row, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let call = Call.edit(
            "PUT", Self.itemPath(id, row.id ?? ""), row.jsonBytes, animation: animation?.rawValue, ifMatch: ifMatch)
        return try await change(call)
    }

    /// `POST /api/tables/{t}/items/{rowID}/reconfigure`: `reconfigureItems`, animation `none` unless given.
    public func reconfigureItem(
        _ row: Row, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let path = Self.itemPath(id, row.id ?? "") + "/reconfigure"
        return try await change(.edit("POST", path, row.jsonBytes, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `POST /api/tables/{t}/items/{rowID}/move`: `moveItem(_:beforeItem:)`, `…afterItem:`, or to a section's end.
    public func moveItem(
        _ rowID: String, _ place: IdentifiedEdit.ItemPlace, in id: String,
        animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let body = Self.document { place.writeMembers(to: &$0) }
        let path = Self.itemPath(id, rowID) + "/move"
        return try await change(.edit("POST", path, body, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `POST /api/tables/{t}/items/{rowID}/switch`, whatever the version.
    public func setSwitch(_ on: Bool, item rowID: String, in id: String) async throws(TableClientError) -> TableChange {
        try await change(.edit("POST", Self.itemPath(id, rowID) + "/switch", Self.switchBody(on), ifMatch: nil))
    }

    /// `POST /api/tables/{t}/items/{rowID}/press`, whatever the version.
    public func pressButton(item rowID: String, in id: String) async throws(TableClientError) -> TableChange {
        try await change(.edit("POST", Self.itemPath(id, rowID) + "/press", ifMatch: nil))
    }

    /// `POST /api/tables/{t}/section-ids`: `insertSections(_:beforeSection:)`, `…afterSection:`, `appendSections`.
    public func insertSections(
        _ sections: [Section], _ place: IdentifiedEdit.SectionPlace, in id: String,
        animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let body = Self.document { writer in
            writer.key("sections")
            writer.array { writer in for section in sections { section.writeJSON(to: &writer) } }
            place.writeMembers(to: &writer)
        }
        let path = Self.tablePath(id) + "/section-ids"
        return try await change(.edit("POST", path, body, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `PUT /api/tables/{t}/section-ids/{sectionID}`: the section's new texts; its rows stay.
    public func reloadSection(
        _ section: Section, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let body = Self.document { section.writeTexts(to: &$0) }
        let path = Self.sectionPath(id, section.id ?? "")
        return try await change(.edit("PUT", path, body, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `DELETE /api/tables/{t}/section-ids/{sectionID}`, with its rows.
    public func deleteSection(
        id sectionID: String, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let path = Self.sectionPath(id, sectionID)
        return try await change(.edit("DELETE", path, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `POST /api/tables/{t}/section-ids/{sectionID}/move`.
    public func moveSection(
        id sectionID: String, _ place: IdentifiedEdit.SectionPlace, in id: String,
        animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let body = Self.document { place.writeMembers(to: &$0) }
        let path = Self.sectionPath(id, sectionID) + "/move"
        return try await change(.edit("POST", path, body, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    static func itemPath(_ id: String, _ rowID: String) -> String { tablePath(id) + "/items/\(rowID)" }
    static func sectionPath(_ id: String, _ sectionID: String) -> String { tablePath(id) + "/section-ids/\(sectionID)" }
}
