import JSON
import MicroHTTP
import TableModel

/// The batch endpoint and every single-operation endpoint (docs/API.md, "Single operations"): each is a
/// batch (of one operation) answered with the change it made, `{version, batch}`.
struct EditRoutes: RouteCollection {
    let context: RouteContext

    func register(on routes: inout RouteBuilder) {
        routes.indexEdit(.POST, "/api/tables/{t}/batch", performBatchUpdates)
        routes.indexEdit(.POST, "/api/tables/{t}/sections", insertSection)
        routes.indexEdit(.PUT, "/api/tables/{t}/sections/{s}", reloadSection)
        routes.indexEdit(.DELETE, "/api/tables/{t}/sections/{s}", deleteSection)
        routes.indexEdit(.POST, "/api/tables/{t}/sections/{s}/move", moveSection)
        routes.indexEdit(.POST, "/api/tables/{t}/sections/{s}/rows", insertRows)
        routes.indexEdit(.PUT, "/api/tables/{t}/sections/{s}/rows/{r}", reloadRow)
        routes.indexEdit(.DELETE, "/api/tables/{t}/sections/{s}/rows/{r}", deleteRow)
        routes.indexEdit(.POST, "/api/tables/{t}/sections/{s}/rows/{r}/move", moveRow)
        routes.indexEdit(.POST, "/api/tables/{t}/sections/{s}/rows/{r}/select", selectRow)
        routes.indexEdit(.POST, "/api/tables/{t}/sections/{s}/rows/{r}/deselect", deselectRow)
        routes.indexEdit(.POST, "/api/tables/{t}/sections/{s}/rows/{r}/switch", setSwitch)
        routes.indexEdit(.POST, "/api/tables/{t}/sections/{s}/rows/{r}/press", pressRow)
    }

    func performBatchUpdates(_ request: HTTPRequest) throws -> HTTPResponse {
        let batch = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.batch(from: value, limits: limits)
        }
        return try change(request) { _ in batch }
    }

    // MARK: Sections

    func insertSection(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.sectionInsert(from: value, limits: limits)
        }
        return try change(request) { table in
            Batch(insertSections: [.init(at: body.at ?? table.sections.count, section: body.section)])
        }
    }

    func reloadSection(_ request: HTTPRequest) throws -> HTTPResponse {
        let s = try request.index("s")
        let section = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.section(from: value, limits: limits)
        }
        return try change(request) { (table) throws in
            try table.requireSection(s)
            return Batch(reloadSections: [.init(at: s, section: section)])
        }
    }

    func deleteSection(_ request: HTTPRequest) throws -> HTTPResponse {
        let s = try request.index("s")
        return try change(request) { (table) throws in
            try table.requireSection(s)
            return Batch(deleteSections: [s])
        }
    }

    func moveSection(_ request: HTTPRequest) throws -> HTTPResponse {
        let s = try request.index("s")
        let to = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.sectionMove(from: value)
        }
        return try change(request) { (table) throws in
            try table.requireSection(s)
            return Batch(moveSections: [.init(from: s, to: to)])
        }
    }

    // MARK: Rows

    func insertRows(_ request: HTTPRequest) throws -> HTTPResponse {
        let s = try request.index("s")
        let body = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.rowInsert(from: value, inSection: s, limits: limits)
        }
        return try change(request) { (table) throws in
            try table.requireSection(s)
            let start = body.at ?? table.sections[s].rows.count
            return Batch(
                insertRows: body.rows.enumerated().map { offset, row in
                    .init(at: TableIndexPath(s, start + offset), row: row)
                })
        }
    }

    func reloadRow(_ request: HTTPRequest) throws -> HTTPResponse {
        let indexPath = try request.indexPath()
        let row = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.row(from: value, limits: limits)
        }
        return try change(request) { (table) throws in
            try table.requireRow(indexPath)
            return Batch(reloadRows: [.init(at: indexPath, row: row)])
        }
    }

    func deleteRow(_ request: HTTPRequest) throws -> HTTPResponse {
        let indexPath = try request.indexPath()
        return try change(request) { (table) throws in
            try table.requireRow(indexPath)
            return Batch(deleteRows: [indexPath])
        }
    }

    func moveRow(_ request: HTTPRequest) throws -> HTTPResponse {
        let indexPath = try request.indexPath()
        let to = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.rowMove(from: value)
        }
        return try change(request) { (table) throws in
            try table.requireRow(indexPath)
            return Batch(moveRows: [.init(from: indexPath, to: to)])
        }
    }

    func selectRow(_ request: HTTPRequest) throws -> HTTPResponse {
        try changeSelection(request, selecting: true)
    }

    func deselectRow(_ request: HTTPRequest) throws -> HTTPResponse {
        try changeSelection(request, selecting: false)
    }

    func setSwitch(_ request: HTTPRequest) throws -> HTTPResponse {
        let indexPath = try request.indexPath()
        let isOn = try request.decodeBody { (value) throws(ValidationError) in
            try ModelDecoder.switchValue(from: value, limits: limits)
        }
        return try change(request) { (table) throws in
            try table.requireRow(indexPath)
            do throws(SwitchRefusal) {
                return try table.switchBatch(settingOn: isOn, at: indexPath)
            } catch {
                throw TableServerError.switchRefused(
                    table: table.id, row: "row \(indexPath.row) in section \(indexPath.section)", error)
            }
        }
    }

    func pressRow(_ request: HTTPRequest) throws -> HTTPResponse {
        let indexPath = try request.indexPath()
        return try change(request) { (table) throws in
            try table.requireRow(indexPath)
            do throws(PressRefusal) {
                return try table.pressBatch(at: indexPath)
            } catch {
                throw TableServerError.pressRefused(
                    table: table.id, row: "row \(indexPath.row) in section \(indexPath.section)", error)
            }
        }
    }

    /// Selects or deselects the row by UIKit's rules (`Table.selectionBatch`).
    private func changeSelection(_ request: HTTPRequest, selecting selected: Bool) throws -> HTTPResponse {
        let indexPath = try request.indexPath()
        return try change(request) { (table) throws in
            try table.requireRow(indexPath)
            return try table.selectionChange(selecting: selected, at: indexPath)
        }
    }
}

extension RouteCollection {
    /// Applies the batch `makeBatch` builds from the current table, with the
    /// request's `?animation=` when it gives one (`defaultAnimation` otherwise,
    /// when given), and answers the change, `{version, batch}`. With a log
    /// that does not record at once, the edit waits for its group's commit
    /// without a thread: the answer is deferred (`answering`).
    func change(
        _ request: HTTPRequest,
        defaultAnimation: RowAnimation? = nil,
        _ makeBatch: @escaping @Sendable (Table) throws -> Batch
    ) throws -> HTTPResponse {
        let animation = try request.animation() ?? defaultAnimation
        let stage = TableStore.batchStage(ifMatch: request.ifMatch) { table in
            var batch = try makeBatch(table)
            if let animation { batch.animation = animation }
            return batch
        }
        let key = try request.idempotencyKey()
        return try answering(request) { done in
            store.edit(request.tableID, key: key, stage, answer: done)
        } respond: { outcome in
            let made = try outcome.get()
            return Respond.change(made.json, version: made.table.version)
        }
    }
}

extension Table {
    /// `selectionBatch(selecting:at:)`, its refusals as the problems a client receives.
    func selectionChange(selecting selected: Bool, at indexPath: TableIndexPath) throws -> Batch {
        do throws(SelectionRefusal) {
            return try selectionBatch(selecting: selected, at: indexPath)
        } catch .selectionDisabled {
            throw TableServerError.selectionDisabled(id)
        } catch .noRow {
            throw TableServerError.rowNotFound(table: id, indexPath: indexPath)
        }
    }

    func requireSection(_ section: Int) throws {
        guard sections.indices.contains(section) else {
            throw TableServerError.sectionNotFound(table: id, section: section)
        }
    }

    func requireRow(_ indexPath: TableIndexPath) throws {
        try requireSection(indexPath.section)
        guard indexPath.row < sections[indexPath.section].rows.count else {
            throw TableServerError.rowNotFound(table: id, indexPath: indexPath)
        }
    }
}
