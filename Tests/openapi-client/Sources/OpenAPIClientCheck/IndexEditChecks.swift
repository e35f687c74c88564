/// Edits by index path, as `performBatchUpdates` and its single operations:
/// sections (insert, reload, move, delete), rows (insert one and several,
/// reload, move, select, deselect, switch, press, delete) and a batch.
@MainActor
struct IndexEditChecks {
    let client: Client
    let checks: Checks
    typealias Row = Components.Schemas.Row

    func run() async {
        let t = Fixture.id
        var version = 0
        await checks.step("getTable version") {
            version = try await client.getTable(path: .init(t: t)).ok.body.json.value1.version ?? 0
        }
        /// Each edit answers the change it made, one version on.
        func made(_ change: Components.Schemas.Change, _ name: String) {
            version += 1
            checks.expect(change.version == version, "\(name): version \(change.version), expected \(version)")
        }
        await checks.step("insertSection") {
            let herbs = Components.Schemas.Section(
                id: "herbs", header: "Herbs", rows: [Row(id: "basil", text: "Basil")])
            let change = try await client.insertSection(path: .init(t: t), body: .json(.init(at: 2, section: herbs)))
                .ok.body.json
            made(change, "insertSection")
            checks.expect(change.batch.insertSections?.first?.at == 2, "insertSection: at 2")
        }
        await checks.step("reloadSection") {
            let herbs = Components.Schemas.Section(
                id: "herbs", header: "Herbs & spices",
                rows: [Row(id: "basil", text: "Basil"), Row(id: "mint", text: "Mint")])
            made(
                try await client.reloadSection(path: .init(t: t, s: 2), body: .json(herbs)).ok.body.json,
                "reloadSection")
        }
        await checks.step("moveSection") {
            let change = try await client.moveSection(path: .init(t: t, s: 2), body: .json(.init(to: 0))).ok.body.json
            made(change, "moveSection")
            checks.expect(change.batch.moveSections?.first.map { [$0.from, $0.to] } == [2, 0], "moveSection: 2 to 0")
        }
        await checks.step("deleteSection") {
            let change = try await client.deleteSection(path: .init(t: t, s: 0), query: .init(animation: .fade))
                .ok.body.json
            made(change, "deleteSection")
            checks.expect(
                change.batch.deleteSections == [0] && change.batch.animation == .fade, "deleteSection: 0, fade")
        }
        await checks.step("insertRows one") {
            let body = Components.Schemas.RowInsert.case1(.init(at: .Position(0), row: Row(id: "bean", text: "Bean")))
            made(try await client.insertRows(path: .init(t: t, s: 1), body: .json(body)).ok.body.json, "insertRows")
        }
        await checks.step("insertRows several") {
            let body = Components.Schemas.RowInsert.case2(
                .init(rows: [Row(id: "onion", text: "Onion"), Row(id: "pea", text: "Pea")]))
            let change = try await client.insertRows(path: .init(t: t, s: 1), body: .json(body)).ok.body.json
            made(change, "insertRows")
            checks.expect(
                change.batch.insertRows?.map(\.at) == [[1, 3], [1, 4]], "insertRows: appended at [1,3], [1,4]")
        }
        await checks.step("getRow") {
            let row = try await client.getRow(path: .init(t: t, s: 1, r: 4)).ok.body.json
            checks.expect(row.id == "pea" && row.text == "Pea", "getRow: [1,4] is Pea")
        }
        await checks.step("reloadRow") {
            let row = Row(id: "bean", text: "Broad bean", detail: "green")
            made(try await client.reloadRow(path: .init(t: t, s: 1, r: 0), body: .json(row)).ok.body.json, "reloadRow")
        }
        await checks.step("moveRow") {
            let change = try await client.moveRow(path: .init(t: t, s: 1, r: 0), body: .json(.init(to: [0, 5])))
                .ok.body.json
            made(change, "moveRow")
            checks.expect(change.batch.moveRows?.first?.to == [0, 5], "moveRow: to [0,5]")
        }
        await checks.step("selectRow") {
            let change = try await client.selectRow(path: .init(t: t, s: 0, r: 0)).ok.body.json
            made(change, "selectRow")
            checks.expect(change.batch.reloadRows?.first?.row.selected == true, "selectRow: the row selected")
        }
        await checks.step("deselectRow") {
            let change = try await client.deselectRow(path: .init(t: t, s: 0, r: 0)).ok.body.json
            made(change, "deselectRow")
            checks.expect(change.batch.reloadRows?.first?.row.selected == false, "deselectRow: the row deselected")
        }
        await checks.step("setSwitchOn") {
            made(
                try await client.setSwitchOn(path: .init(t: t, s: 0, r: 0), body: .json(.init(on: true))).ok.body.json,
                "setSwitchOn")
            let row = try await client.getRow(path: .init(t: t, s: 0, r: 0)).ok.body.json
            checks.expect(row.accessoryView == ._switch(.init(_type: ._switch, on: true, enabled: true)), "switch on")
        }
        await checks.step("pressAccessoryButton") {
            let change = try await client.pressAccessoryButton(path: .init(t: t, s: 0, r: 3)).ok.body.json
            made(change, "pressAccessoryButton")
            checks.expect(change.batch.press?.at == [0, 3] && change.batch.press?.id == "date", "press: Date at [0,3]")
        }
        await checks.step("pressAccessoryButton refused") {
            let problem = try await client.pressAccessoryButton(path: .init(t: t, s: 0, r: 0)).conflict.body
                .application_problem_plus_json
            checks.expect(problem._type == "not-a-button", "press of a switch: 409 not-a-button")
        }
        await checks.step("deleteRow") {
            let change = try await client.deleteRow(path: .init(t: t, s: 0, r: 5)).ok.body.json
            made(change, "deleteRow")
            checks.expect(change.batch.deleteRows == [[0, 5]], "deleteRow: [0,5]")
        }
        await checks.step("performBatchUpdates") {
            let batch = Components.Schemas.Batch(
                deleteRows: [[1, 0]], insertRows: [.init(at: [0, 0], row: Row(id: "apricot", text: "Apricot"))],
                animation: .fade)
            let change = try await client.performBatchUpdates(path: .init(t: t), body: .json(batch)).ok.body.json
            made(change, "performBatchUpdates")
            let table = try await client.getTable(path: .init(t: t)).ok.body.json.value1
            checks.expect(
                table.texts == [
                    ["Apricot", "Apple", "Banana", "Cherry", "Date", "Elderberry"], ["Leek", "Onion", "Pea"],
                ], "after the index edits: \(table.texts)")
            checks.expect(table.version == version, "getTable: version \(version)")
        }
    }
}
