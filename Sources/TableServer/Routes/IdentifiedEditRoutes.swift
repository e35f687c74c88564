import JSON
import MicroHTTP
import TableModel

/// Edits by id, the diffable data source way (docs/API.md, "Edits by id"): a
/// batch of edits naming rows and sections by id, and each edit on its own.
/// Every one is translated into one index batch (`IdentifiedBatch.translated`)
/// under the table's lock, then validated and published like any other batch,
/// and answered with the change it made, `{version, batch}`.
struct IdentifiedEditRoutes: RouteCollection {
    let context: RouteContext

    func register(on routes: inout RouteBuilder) {
        routes.change(.POST, "/api/tables/{t}/batch-by-id", applySnapshotEdits)
        routes.change(.POST, "/api/tables/{t}/items", insertItems)
        routes.change(.PUT, "/api/tables/{t}/items/{rowID}", reloadItem)
        routes.change(.POST, "/api/tables/{t}/items/{rowID}/reconfigure", reconfigureItem)
        routes.change(.DELETE, "/api/tables/{t}/items/{rowID}", deleteItem)
        routes.change(.POST, "/api/tables/{t}/items/{rowID}/move", moveItem)
        routes.change(.POST, "/api/tables/{t}/items/{rowID}/switch", setItemSwitch)
        routes.change(.POST, "/api/tables/{t}/items/{rowID}/press", pressItem)
        routes.change(.POST, "/api/tables/{t}/items/{rowID}/select", selectItem)
        routes.change(.POST, "/api/tables/{t}/items/{rowID}/deselect", deselectItem)
        routes.change(.POST, "/api/tables/{t}/section-ids", insertSection)
        routes.change(.PUT, "/api/tables/{t}/section-ids/{sectionID}", reloadSection)
        routes.change(.DELETE, "/api/tables/{t}/section-ids/{sectionID}", deleteSection)
        routes.change(.POST, "/api/tables/{t}/section-ids/{sectionID}/move", moveSection)
    }

    func applySnapshotEdits(_ request: HTTPRequest) throws -> HTTPResponse {
        let batch = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.identifiedBatch(from: value, limits: limits)
        }
        return try change(request) { table in try batch.indexBatch(for: table) }
    }

    // MARK: Items (rows)

    func insertItems(_ request: HTTPRequest) throws -> HTTPResponse {
        let insert = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.itemInsert(from: value, limits: limits)
        }
        return try change(request, [insert])
    }

    func reloadItem(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try request.rowID(limits)
        let row = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.identifiedRow(from: value, id: id, limits: limits)
        }
        return try change(request, [.reloadItems([row])])
    }

    /// reconfigureItems: a reload that keeps the cell, so not animated unless asked.
    func reconfigureItem(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try request.rowID(limits)
        let row = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.identifiedRow(from: value, id: id, limits: limits)
        }
        return try change(request, defaultAnimation: RowAnimation.none, [.reconfigureItems([row])])
    }

    func deleteItem(_ request: HTTPRequest) throws -> HTTPResponse {
        try change(request, [.deleteItems([request.rowID(limits)])])
    }

    func moveItem(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try request.rowID(limits)
        let place = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.itemPlace(from: value, limits: limits)
        }
        return try change(request, [.moveItem(id, place)])
    }

    func setItemSwitch(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try request.rowID(limits)
        let isOn = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.switchValue(from: value, limits: limits)
        }
        return try change(request) { (table) throws in
            do throws(SwitchRefusal) {
                return try table.switchBatch(settingOn: isOn, forItem: id)
            } catch {
                throw TableServerError.switchRefused(table: table.id, row: "item \"\(id)\"", error)
            }
        }
    }

    func pressItem(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try request.rowID(limits)
        return try change(request) { (table) throws in
            do throws(PressRefusal) {
                return try table.pressBatch(forItem: id)
            } catch {
                throw TableServerError.pressRefused(table: table.id, row: "item \"\(id)\"", error)
            }
        }
    }

    func selectItem(_ request: HTTPRequest) throws -> HTTPResponse {
        try changeSelection(request, selecting: true)
    }

    func deselectItem(_ request: HTTPRequest) throws -> HTTPResponse {
        try changeSelection(request, selecting: false)
    }

    /// Selects or deselects the item by UIKit's rules (`Table.selectionBatch`);
    /// an id not in the table is refused as every edit by id refuses it (409).
    private func changeSelection(_ request: HTTPRequest, selecting selected: Bool) throws -> HTTPResponse {
        let id = try request.rowID(limits)
        return try change(request) { (table) throws in
            guard let indexPath = table.indexPath(ofRow: id) else {
                throw TableServerError.refused(.unknownItem(id, selected ? "select item" : "deselect item"))
            }
            return try table.selectionChange(selecting: selected, at: indexPath)
        }
    }

    // MARK: Sections

    func insertSection(_ request: HTTPRequest) throws -> HTTPResponse {
        let insert = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.identifiedSectionInsert(from: value, limits: limits)
        }
        return try change(request, [insert])
    }

    func reloadSection(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try request.sectionID(limits)
        let section = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.identifiedSection(from: value, id: id, limits: limits)
        }
        return try change(request, [.reloadSections([section])])
    }

    func deleteSection(_ request: HTTPRequest) throws -> HTTPResponse {
        try change(request, [.deleteSections([request.sectionID(limits)])])
    }

    func moveSection(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try request.sectionID(limits)
        let place = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.sectionPlace(from: value, limits: limits)
        }
        return try change(request, [.moveSection(id, place)])
    }

    /// Applies `edits` as one batch; an unknown or duplicate id is refused (409).
    private func change(
        _ request: HTTPRequest, defaultAnimation: RowAnimation? = nil, _ edits: [IdentifiedEdit]
    ) throws -> HTTPResponse {
        try change(request, defaultAnimation: defaultAnimation) { table in
            try IdentifiedBatch(edits: edits).indexBatch(for: table)
        }
    }
}

extension IdentifiedBatch {
    /// The index batch these edits make of `table`; an id refused is a refused batch (409).
    func indexBatch(for table: Table) throws -> Batch {
        do throws(BatchError) {
            return try translated(for: table)
        } catch {
            throw TableServerError.refused(error)
        }
    }
}
