import JSON
import MicroHTTP
import TableModel

/// Edits by id, the diffable data source way (docs/API.md, "Edits by id"): a
/// batch of edits naming rows and sections by id, and each edit on its own.
/// Every one is translated into one index batch (`IdentifiedBatch.translated`)
/// under the table's lock, then validated and published like any other batch,
/// and answered with the change it made, `{version, batch}`.
extension RouteBuilder {
    mutating func addIdentifiedEditRoutes() {
        let store = context.store
        let limits = context.limits

        /// Applies `edits` as one batch; an unknown or duplicate id is refused (409).
        @Sendable func change(
            _ request: HTTPRequest, defaultAnimation: RowAnimation? = nil, _ edits: [IdentifiedEdit]
        ) throws -> HTTPResponse {
            try store.change(request, defaultAnimation: defaultAnimation) { table in
                try IdentifiedBatch(edits: edits).indexBatch(for: table)
            }
        }

        edit(.POST, "/api/tables/{t}/batch-by-id") { request in
            let batch = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.identifiedBatch(from: value, limits: limits)
            }
            return try store.change(request) { table in try batch.indexBatch(for: table) }
        }

        // MARK: Items (rows)

        edit(.POST, "/api/tables/{t}/items") { request in
            let insert = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.itemInsert(from: value, limits: limits)
            }
            return try change(request, [insert])
        }

        edit(.PUT, "/api/tables/{t}/items/{rowID}") { request in
            let id = request.parameters["rowID"] ?? ""
            let row = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.identifiedRow(from: value, id: id, limits: limits)
            }
            return try change(request, [.reloadItems([row])])
        }

        // reconfigureItems: a reload that keeps the cell, so not animated unless asked.
        edit(.POST, "/api/tables/{t}/items/{rowID}/reconfigure") { request in
            let id = request.parameters["rowID"] ?? ""
            let row = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.identifiedRow(from: value, id: id, limits: limits)
            }
            return try change(request, defaultAnimation: RowAnimation.none, [.reconfigureItems([row])])
        }

        edit(.DELETE, "/api/tables/{t}/items/{rowID}") { request in
            try change(request, [.deleteItems([request.parameters["rowID"] ?? ""])])
        }

        edit(.POST, "/api/tables/{t}/items/{rowID}/move") { request in
            let place = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.itemPlace(from: value, limits: limits)
            }
            return try change(request, [.moveItem(request.parameters["rowID"] ?? "", place)])
        }

        edit(.POST, "/api/tables/{t}/items/{rowID}/switch") { request in
            let id = request.parameters["rowID"] ?? ""
            let isOn = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.switchValue(from: value, limits: limits)
            }
            return try store.change(request) { (table) throws in
                do throws(SwitchRefusal) {
                    return try table.switchBatch(settingOn: isOn, forItem: id)
                } catch {
                    throw TableServerError.switchRefused(table: table.id, row: "item \"\(id)\"", error)
                }
            }
        }

        // MARK: Sections

        edit(.POST, "/api/tables/{t}/section-ids") { request in
            let insert = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.identifiedSectionInsert(from: value, limits: limits)
            }
            return try change(request, [insert])
        }

        edit(.PUT, "/api/tables/{t}/section-ids/{sectionID}") { request in
            let id = request.parameters["sectionID"] ?? ""
            let section = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.identifiedSection(from: value, id: id, limits: limits)
            }
            return try change(request, [.reloadSections([section])])
        }

        edit(.DELETE, "/api/tables/{t}/section-ids/{sectionID}") { request in
            try change(request, [.deleteSections([request.parameters["sectionID"] ?? ""])])
        }

        edit(.POST, "/api/tables/{t}/section-ids/{sectionID}/move") { request in
            let place = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.sectionPlace(from: value, limits: limits)
            }
            return try change(request, [.moveSection(request.parameters["sectionID"] ?? "", place)])
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
