import JSON
import MicroHTTP
import TableModel

/// The batch endpoint and every single-operation endpoint (docs/API.md, "Single operations"): each is a
/// batch (of one operation) answered with the change it made, `{version, batch}`.
extension RouteBuilder {
    mutating func addEditRoutes() {
        let store = context.store
        let limits = context.limits

        edit(.POST, "/api/tables/{t}/batch") { request in
            let batch = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.batch(from: value, limits: limits)
            }
            return try store.change(request) { _ in batch }
        }

        // MARK: Sections

        edit(.POST, "/api/tables/{t}/sections") { request in
            let body = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.sectionInsert(from: value, limits: limits)
            }
            return try store.change(request) { table in
                Batch(insertSections: [.init(at: body.at ?? table.sections.count, section: body.section)])
            }
        }

        edit(.PUT, "/api/tables/{t}/sections/{s}") { request in
            let s = try request.index("s")
            let section = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.section(from: value, limits: limits)
            }
            return try store.change(request) { (table) throws in
                try table.requireSection(s)
                return Batch(reloadSections: [.init(at: s, section: section)])
            }
        }

        edit(.DELETE, "/api/tables/{t}/sections/{s}") { request in
            let s = try request.index("s")
            return try store.change(request) { (table) throws in
                try table.requireSection(s)
                return Batch(deleteSections: [s])
            }
        }

        edit(.POST, "/api/tables/{t}/sections/{s}/move") { request in
            let s = try request.index("s")
            let to = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.sectionMove(from: value)
            }
            return try store.change(request) { (table) throws in
                try table.requireSection(s)
                return Batch(moveSections: [.init(from: s, to: to)])
            }
        }

        // MARK: Rows

        edit(.POST, "/api/tables/{t}/sections/{s}/rows") { request in
            let s = try request.index("s")
            let body = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.rowInsert(from: value, limits: limits)
            }
            return try store.change(request) { (table) throws in
                try table.requireSection(s)
                let start = body.at ?? table.sections[s].rows.count
                return Batch(
                    insertRows: body.rows.enumerated().map { offset, row in
                        .init(at: TableIndexPath(s, start + offset), row: row)
                    })
            }
        }

        edit(.PUT, "/api/tables/{t}/sections/{s}/rows/{r}") { request in
            let indexPath = TableIndexPath(try request.index("s"), try request.index("r"))
            let row = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.row(from: value, limits: limits)
            }
            return try store.change(request) { (table) throws in
                try table.requireRow(indexPath)
                return Batch(reloadRows: [.init(at: indexPath, row: row)])
            }
        }

        edit(.DELETE, "/api/tables/{t}/sections/{s}/rows/{r}") { request in
            let indexPath = TableIndexPath(try request.index("s"), try request.index("r"))
            return try store.change(request) { (table) throws in
                try table.requireRow(indexPath)
                return Batch(deleteRows: [indexPath])
            }
        }

        edit(.POST, "/api/tables/{t}/sections/{s}/rows/{r}/move") { request in
            let indexPath = TableIndexPath(try request.index("s"), try request.index("r"))
            let to = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.rowMove(from: value)
            }
            return try store.change(request) { (table) throws in
                try table.requireRow(indexPath)
                return Batch(moveRows: [.init(from: indexPath, to: to)])
            }
        }

        for (action, selected) in [("select", true), ("deselect", false)] {
            edit(.POST, "/api/tables/{t}/sections/{s}/rows/{r}/\(action)") { request in
                let indexPath = TableIndexPath(try request.index("s"), try request.index("r"))
                return try store.change(request) { (table) throws in
                    try table.requireRow(indexPath)
                    do throws(SelectionRefusal) {
                        return try table.selectionBatch(selecting: selected, at: indexPath)
                    } catch .selectionDisabled {
                        throw TableServerError.selectionDisabled(table.id)
                    } catch .noRow {
                        throw TableServerError.rowNotFound(table: table.id, indexPath: indexPath)
                    }
                }
            }
        }

        edit(.POST, "/api/tables/{t}/sections/{s}/rows/{r}/switch") { request in
            let indexPath = TableIndexPath(try request.index("s"), try request.index("r"))
            let isOn = try request.decodeBody { (value) throws(ValidationError) in
                try ModelDecoder.switchValue(from: value, limits: limits)
            }
            return try store.change(request) { (table) throws in
                try table.requireRow(indexPath)
                do throws(SwitchRefusal) {
                    return try table.switchBatch(settingOn: isOn, at: indexPath)
                } catch {
                    throw TableServerError.switchRefused(
                        table: table.id, row: "row \(indexPath.row) in section \(indexPath.section)", error)
                }
            }
        }

        edit(.POST, "/api/tables/{t}/sections/{s}/rows/{r}/press") { request in
            let indexPath = TableIndexPath(try request.index("s"), try request.index("r"))
            return try store.change(request) { (table) throws in
                try table.requireRow(indexPath)
                do throws(PressRefusal) {
                    return try table.pressBatch(at: indexPath)
                } catch {
                    throw TableServerError.pressRefused(
                        table: table.id, row: "row \(indexPath.row) in section \(indexPath.section)", error)
                }
            }
        }
    }
}

extension TableStore {
    /// Applies the batch `makeBatch` builds from the current table, with the
    /// request's `?animation=` when it gives one (`defaultAnimation` otherwise,
    /// when given), and answers the change, `{version, batch}`.
    func change(
        _ request: HTTPRequest,
        defaultAnimation: RowAnimation? = nil,
        _ makeBatch: (Table) throws -> Batch
    ) throws -> HTTPResponse {
        let animation = try request.animation() ?? defaultAnimation
        let edit = try apply(request.tableID, ifMatch: request.ifMatch) { table in
            var batch = try makeBatch(table)
            if let animation { batch.animation = animation }
            return batch
        }
        var body = edit.json
        body.append(UInt8(ascii: "\n"))
        return Respond.json(body, version: edit.version)
    }
}

extension Table {
    func requireSection(_ section: Int) throws {
        guard sections.indices.contains(section) else { throw TableServerError.sectionNotFound(table: id, section: section) }
    }

    func requireRow(_ indexPath: TableIndexPath) throws {
        try requireSection(indexPath.section)
        guard indexPath.row < sections[indexPath.section].rows.count else {
            throw TableServerError.rowNotFound(table: id, indexPath: indexPath)
        }
    }
}
