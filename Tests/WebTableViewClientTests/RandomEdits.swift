import TableModel
import WebTableViewClient

/// Another client editing the table at random: before each edit it reads the
/// table, then sends one edit made against what it read — index batches, single
/// operations by index and by id, batches by id, snapshots, switches and presses.
/// Edits that other writers made stale are refused (`409`, `412`, or `404` for a
/// position in a section gone since) and counted, as a real client would see them.
struct RandomEditor {
    let client: TableClient
    let name: String
    var made = 0
    var refused = 0
    private var serial = 0

    init(client: TableClient, name: String) {
        self.client = client
        self.name = name
    }

    mutating func edit() async throws {
        let table = try await client.table("t")
        serial += 1
        do {
            try await send(on: table)
            made += 1
        } catch .problem(let problem) where [404, 409, 412].contains(problem.status) {
            refused += 1
        }
    }

    private func newRow() -> Row { Row(id: "\(name)-\(serial)", text: "\(name) \(serial)") }

    private func send(on table: Table) async throws(TableClientError) {
        let rows = table.sections.enumerated().flatMap { s, section in
            section.rows.enumerated().map { r, row in (TableIndexPath(s, r), row) }
        }
        let ids = rows.compactMap(\.1.id).filter { $0 != "wifi" && $0 != "update" }
        guard let some = rows.randomElement(), let id = ids.randomElement(), table.sections.count >= 2 else {
            _ = try await client.insertItems([newRow()], .end(section: nil), in: "t")
            return
        }
        // Keep the table between a handful and a few dozen rows.
        if rows.count > 40 {
            _ = try await client.apply(
                IdentifiedBatch(edits: [.deleteItems(Array(Set(ids.shuffled().prefix(8))))]), in: "t")
            return
        }
        switch Int.random(in: 0..<12) {
        case 0:
            var batch = Batch(animation: .fade)
            batch.deleteRows = [some.0]
            batch.insertRows = [Batch.RowItem(at: TableIndexPath(some.0.section, 0), row: newRow())]
            _ = try await client.performBatchUpdates(batch, in: "t", ifMatch: table.version)
        case 1: _ = try await client.insertRows([newRow()], inSection: some.0.section, at: some.0.row, in: "t")
        case 2: _ = try await client.deleteRow(at: some.0, in: "t", animation: .left, ifMatch: table.version)
        case 3: _ = try await client.moveRow(at: some.0, to: TableIndexPath(0, 0), in: "t", ifMatch: table.version)
        case 4: _ = try await client.insertItems([newRow(), Row(id: "\(name)-\(serial)b")], .after(id), in: "t")
        case 5: _ = try await client.deleteItem(id, in: "t")
        case 6: _ = try await client.moveItem(id, .end(section: table.sections.randomElement()?.id), in: "t")
        case 7: _ = try await client.reloadItem(Row(id: id, text: "\(name) reloaded \(serial)"), in: "t")
        case 8: _ = try await client.setSwitch(Bool.random(), item: "wifi", in: "t")
        case 9: _ = try await client.pressButton(item: "update", in: "t")
        case 10:
            let section = Section(id: "\(name)-s\(serial)", header: "S", rows: [newRow()])
            let edits: [IdentifiedEdit] =
                table.sections.count > 5
                ? [.deleteSections([table.sections.compactMap(\.id).filter { $0 != "c" }.randomElement() ?? ""])]
                : [.insertSections([section], .before("c")), .moveItem(id, .end(section: section.id))]
            _ = try await client.apply(IdentifiedBatch(edits: edits, animation: .bottom), in: "t")
        default:
            var snapshot = table
            let s = some.0.section
            let shuffled = Array(snapshot.sections[s].rows.shuffled().dropLast())
            guard let section = Optional(snapshot.sections[s]) else { return }
            var replaced = section
            replaced.rows = RowList(shuffled)
            do {
                _ = try snapshot.apply(Batch(reloadSections: [Batch.SectionItem(at: s, section: replaced)]))
            } catch {
                return
            }
            _ = try await client.applySnapshot(snapshot)
        }
    }
}
