import JSON
import MicroHTTP
import TableImport
import TableModel

/// `/api/tables` and `/api/tables/{t}`: the list, create, fetch, replace, patch, delete.
struct TableRoutes: RouteCollection {
    let context: RouteContext

    func register(on routes: inout RouteBuilder) {
        routes.read("/api/tables", listTables)
        routes.edit(.POST, "/api/tables", createTable)
        routes.read("/api/tables/{t}", getTable)
        routes.edit(.PUT, "/api/tables/{t}", weight: .heavy, replaceTable)
        routes.edit(.PATCH, "/api/tables/{t}", updateProperties)
        routes.edit(.DELETE, "/api/tables/{t}", deleteTable)
    }

    func listTables(_ request: HTTPRequest) throws -> HTTPResponse {
        let tables = context.readableTables()
        let list = Respond.json { writer in
            writer.beginObject()
            writer.key("tables")
            writer.beginArray()
            for table in tables { table.writeSummaryJSON(to: &writer) }
            writer.endArray()
            writer.endObject()
        }
        return Respond.taggedByContent(list, for: request)
    }

    func createTable(_ request: HTTPRequest) throws -> HTTPResponse {
        let table: Table
        try request.checkCSVOptions(limits: limits)
        if let records = try request.recordsBody() {
            guard let id = request.query["table-id"], !id.isEmpty else {
                let body = records.isCSV ? "a CSV body" : "an array of records"
                throw TableServerError.badRequest(
                    type: "bad-parameter", detail: "query parameter table-id names the table \(body) makes")
            }
            table = try request.recordsTable(records, id: id, remembering: nil, limits: limits)
        } else {
            table = try request.decodeBody(.jsonOrCSV) { (value) throws(ValidationError) in
                try ModelDecoder.table(from: value, limits: limits)
            }
        }
        var created = table
        // A JSON document made under another name (the index page's upload: docs/API.md, "CSV").
        if let id = request.query["table-id"], !request.hasCSVBody { created.id = id }
        created.version = 0
        try TableAccessCheck.validate(created)
        let key = try request.idempotencyKey()
        return try answering(request) { [created] done in
            store.create(created, key: key, answer: done)
        } respond: { [created, context] outcome in
            do {
                _ = try outcome.get()
            } catch is IdempotentRepeat {
                // Created under this key before, from this very body: the same table
                // is answered again, whatever became of it since.
            }
            // Its creator is an admin of it (docs/ACCESS.md, "What each route needs"): shown its `access`.
            var response = Respond.json(status: 201, version: created.version) {
                created.writeJSON(to: &$0, withAccess: true)
            }
            response.headers.set("Location", "/api/tables/\(created.id)")
            return created.access == nil ? response : context.forAdminOnly(response)
        }
    }

    func getTable(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let format = try TableFormat.requested(by: request) else {
            return Respond.notAcceptable(request.headers["Accept"] ?? "")
        }
        let read = try TableRead(request, store: store)
        if format == .csv {
            // A view exports just its rows, under a tag of its own.
            let tag = read.csvTag
            if ETag.matches(request.headers["If-None-Match"], tag: tag) {
                return Respond.notModified(etag: tag, cacheControl: Respond.revalidate)
            }
            let table = read.table()
            let export = CSVExport(
                sections: CSVExportSection.all(of: table), source: read.snapshot.source,
                rowsPerPiece: Respond.rowsPerPiece)
            return Respond.csv(export, tableID: table.id, etag: tag, download: request.query["format"] != nil)
        }
        if let notModified = read.notModified(request) { return notModified }
        let table = read.table()
        // A table's `access` is shown to its admins alone (docs/ACCESS.md, "Access per table").
        let shown = table.access != nil && context.administers(table.id, request)
        guard table.rowCount <= Respond.rowsPerPiece else {
            let pieces = Respond.json(
                pieces: table.jsonPieces(rowsPerPiece: Respond.rowsPerPiece, withAccess: shown), version: table.version)
            let answer = read.query == nil ? pieces : read.answer(pieces, path: request.path)
            return shown ? context.forAdminOnly(answer) : answer
        }
        let response = Respond.json(version: table.version, reservingCapacity: table.estimatedJSONCount) {
            table.writeJSON(to: &$0, withAccess: shown)
        }
        let answer = read.answer(response, path: request.path)
        return shown ? context.forAdminOnly(answer) : answer
    }

    func replaceTable(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = request.tableID
        try request.checkCSVOptions(limits: limits)
        // Only a JSON document naming `access` changes it; any other keeps the table's.
        var namesAccess = false
        var snapshot =
            if let records = try request.recordsBody() {
                try request.recordsSnapshot(records, of: store.handle(id).table, limits: limits)
            } else {
                try request.decodeBody(.jsonOrCSV) { (value) throws(ValidationError) in
                    if case .object(let document) = value { namesAccess = document["access"] != nil }
                    return try ModelDecoder.table(from: value, limits: limits, defaultID: id)
                }
            }
        guard snapshot.id == id else {
            throw TableServerError.invalid(
                ValidationError(issues: [
                    ValidationIssue(
                        path: "$.id", message: "\"\(snapshot.id)\" does not match the table in the path (\"\(id)\")")
                ]))
        }
        snapshot.version = 0
        if namesAccess {
            try TableAccessCheck.validate(snapshot)
        } else {
            snapshot.access = try store.handle(id).table.access
        }
        let key = try request.idempotencyKey()
        let stage = TableStore.snapshotStage(snapshot, ifMatch: request.ifMatch)
        return try answering(request) { done in
            store.edit(id, key: key, stage, answer: done)
        } respond: { outcome in
            let made = try outcome.get()
            return Respond.snapshot(version: made.table.version, changes: made.changes.map(\.json))
        }
    }

    func updateProperties(_ request: HTTPRequest) throws -> HTTPResponse {
        let properties = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.properties(from: value, limits: limits)
        }
        let id = request.tableID
        let key = try request.idempotencyKey()
        let stage = TableStore.batchStage(ifMatch: request.ifMatch) { _ in Batch(properties: properties) }
        return try answering(request) { done in
            store.edit(id, key: key, stage, answer: done)
        } respond: { [context] outcome in
            let table: Table
            do {
                table = try outcome.get().table
            } catch is IdempotentRepeat {
                // Made before under this key. The answer is the whole table, which is
                // not kept per version: the table as it is now, the first answer
                // again unless the table was edited since (docs/API.md, "Idempotency-Key").
                table = try context.store.table(id)
            }
            let shown = table.access != nil && context.administers(table.id, request)
            let response = Respond.json(version: table.version) { table.writeJSON(to: &$0, withAccess: shown) }
            return shown ? context.forAdminOnly(response) : response
        }
    }

    func deleteTable(_ request: HTTPRequest) throws -> HTTPResponse {
        let key = try request.idempotencyKey()
        return try answering(request) { done in
            store.delete(request.tableID, ifMatch: request.ifMatch, key: key, answer: done)
        } respond: { outcome in
            do {
                _ = try outcome.get()
            } catch is IdempotentRepeat {
                // Deleted under this key before: answered as then.
            }
            return HTTPResponse(status: 204)
        }
    }
}
