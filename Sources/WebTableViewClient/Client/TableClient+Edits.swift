import JSON
import TableModel

/// Edits by index path: `performBatchUpdates` and its single operations (docs/API.md,
/// "A batch" and "Single operations"). Each answers the change the server published.
extension TableClient {
    /// `POST /api/tables/{t}/batch`: the batch as one version, or nothing when UIKit would refuse it.
    public func performBatchUpdates(
        _ batch: Batch, in id: String, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        try await change(.edit("POST", Self.tablePath(id) + "/batch", batch.jsonBytes, ifMatch: ifMatch))
    }

    /// `POST …/sections/{s}/rows`: `rows` at `row`, `row + 1`, …; appended when `row` is nil.
    public func insertRows(
        _ rows: [Row], inSection section: Int, at row: Int? = nil, in id: String,
        animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let body = Self.document { writer in
            if let row { writer.key("at"); writer.integer(row) }
            writer.key("rows")
            writer.array { writer in for row in rows { row.writeJSON(to: &writer) } }
        }
        let path = Self.tablePath(id) + "/sections/\(section)/rows"
        return try await change(.edit("POST", path, body, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `DELETE …/sections/{s}/rows/{r}`.
    public func deleteRow(
        at indexPath: TableIndexPath, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        try await change(.edit("DELETE", Self.rowPath(id, indexPath), animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `PUT …/sections/{s}/rows/{r}`: `reloadRows` with the new row.
    public func reloadRow(
        at indexPath: TableIndexPath, with row: Row, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let call = Call.edit(
            "PUT", Self.rowPath(id, indexPath), row.jsonBytes, animation: animation?.rawValue, ifMatch: ifMatch)
        return try await change(call)
    }

    /// `POST …/sections/{s}/rows/{r}/move`: `moveRow(at:to:)`.
    public func moveRow(
        at indexPath: TableIndexPath, to target: TableIndexPath, in id: String,
        animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let body = Self.document { writer in
            writer.key("to"); writer.indexPath(target)
        }
        let path = Self.rowPath(id, indexPath) + "/move"
        return try await change(.edit("POST", path, body, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `POST …/sections`: `section` at `index`; appended when `index` is nil.
    public func insertSection(
        _ section: Section, at index: Int? = nil, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let body = Self.document { writer in
            if let index { writer.key("at"); writer.integer(index) }
            writer.key("section"); section.writeJSON(to: &writer)
        }
        let path = Self.tablePath(id) + "/sections"
        return try await change(.edit("POST", path, body, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `DELETE …/sections/{s}`, with its rows.
    public func deleteSection(
        _ index: Int, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let path = Self.tablePath(id) + "/sections/\(index)"
        return try await change(.edit("DELETE", path, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `PUT …/sections/{s}`: `reloadSections` with the new section and its rows.
    public func reloadSection(
        _ index: Int, with section: Section, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        var body = JSONWriter()
        section.writeJSON(to: &body)
        let path = Self.tablePath(id) + "/sections/\(index)"
        return try await change(.edit("PUT", path, body.bytes, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `POST …/sections/{s}/move`: `moveSection(_:toSection:)`.
    public func moveSection(
        _ index: Int, to target: Int, in id: String, animation: RowAnimation? = nil, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let body = Self.document { writer in
            writer.key("to"); writer.integer(target)
        }
        let path = Self.tablePath(id) + "/sections/\(index)/move"
        return try await change(.edit("POST", path, body, animation: animation?.rawValue, ifMatch: ifMatch))
    }

    /// `POST …/rows/{r}/select` or `…/deselect`: a reload of the rows it touches, animation `none`.
    public func setSelected(
        _ selected: Bool, rowAt indexPath: TableIndexPath, in id: String, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let path = Self.rowPath(id, indexPath) + (selected ? "/select" : "/deselect")
        return try await change(.edit("POST", path, ifMatch: ifMatch))
    }

    /// `POST …/rows/{r}/switch`: `setOn(_:animated:)` of the row's switch.
    public func setSwitch(
        _ on: Bool, rowAt indexPath: TableIndexPath, in id: String, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        let path = Self.rowPath(id, indexPath) + "/switch"
        return try await change(.edit("POST", path, Self.switchBody(on), ifMatch: ifMatch))
    }

    /// `POST …/rows/{r}/press`: a press of the row's accessory button, a change of its own.
    public func pressButton(
        rowAt indexPath: TableIndexPath, in id: String, ifMatch: Int? = nil
    ) async throws(TableClientError) -> TableChange {
        try await change(.edit("POST", Self.rowPath(id, indexPath) + "/press", ifMatch: ifMatch))
    }

    /// `PUT /api/tables/{t}`: `apply(snapshot)`. The server diffs by id and
    /// applies the difference as the fewest valid batches, each its own version.
    public func applySnapshot(_ table: Table, ifMatch: Int? = nil) async throws(TableClientError) -> [TableChange] {
        let value = try await json(.edit("PUT", Self.tablePath(table.id), table.jsonBytes, ifMatch: ifMatch))
        return try ClientDecoding.changes(value).changes
    }

    /// `PATCH /api/tables/{t}`: the table's properties; answers the table.
    public func updateProperties(
        _ properties: TableProperties, of id: String, ifMatch: Int? = nil
    ) async throws(TableClientError) -> Table {
        var body = JSONWriter()
        properties.writeJSON(to: &body)
        return try ClientDecoding.table(
            try await json(.edit("PATCH", Self.tablePath(id), body.bytes, ifMatch: ifMatch)))
    }

    /// `POST /api/tables`: a new table; `409 table-exists` when its id is in use.
    public func createTable(_ table: Table) async throws(TableClientError) {
        _ = try await perform(.edit("POST", "/api/tables", table.jsonBytes, ifMatch: nil))
    }

    /// `DELETE /api/tables/{t}`: its event streams get `deleted`.
    public func deleteTable(_ id: String, ifMatch: Int? = nil) async throws(TableClientError) {
        _ = try await perform(.edit("DELETE", Self.tablePath(id), ifMatch: ifMatch))
    }

    static func rowPath(_ id: String, _ indexPath: TableIndexPath) -> String {
        tablePath(id) + "/sections/\(indexPath.section)/rows/\(indexPath.row)"
    }

    static func switchBody(_ on: Bool) -> [UInt8] {
        document { writer in
            writer.key("on"); writer.bool(on)
        }
    }

    /// A JSON object whose members `members` writes.
    static func document(_ members: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        members(&writer)
        writer.endObject()
        return writer.bytes
    }

    /// Performs an edit answered by one change.
    func change(_ call: Call) async throws(TableClientError) -> TableChange {
        try ClientDecoding.change(try await json(call))
    }
}
