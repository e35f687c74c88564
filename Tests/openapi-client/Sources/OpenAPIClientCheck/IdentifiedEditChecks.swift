/// Edits by id, as `UITableViewDiffableDataSource` makes them: items (insert
/// one and several, read, reload, patch, reconfigure, move, switch, press,
/// select, deselect, delete), sections by id (patched too), and a batch of every kind of edit by id.
@MainActor
struct IdentifiedEditChecks {
    let client: Client
    let checks: Checks
    typealias Row = Components.Schemas.Row
    typealias Section = Components.Schemas.ItemSection

    /// A section inserted by id, with rows by id.
    static func section(_ id: String, _ header: String, _ rows: [Components.Schemas.ItemRow]) -> Section {
        Section(value1: .init(header: header), value2: .init(id: id, rows: rows))
    }

    func run() async {
        let t = Fixture.id
        /// The version each edit answers must be past the one before.
        var version = 0
        func made(_ change: Components.Schemas.Change, _ name: String) {
            checks.expect(version == 0 || change.version == version + 1, "\(name): version \(change.version)")
            version = change.version
        }
        await checks.step("insertItems one") {
            let body = Components.Schemas.ItemInsert.case1(
                .init(row: Fixture.item("fig", "Fig"), afterItem: "elderberry"))
            made(try await client.insertItems(path: .init(t: t), body: .json(body)).ok.body.json, "insertItems")
        }
        await checks.step("insertItems several") {
            let body = Components.Schemas.ItemInsert.case2(
                .init(rows: [Fixture.item("kale", "Kale"), Fixture.item("okra", "Okra")], toSection: "vegetables"))
            made(try await client.insertItems(path: .init(t: t), body: .json(body)).ok.body.json, "insertItems")
        }
        await checks.step("getItem") {
            let item = try await client.getItem(path: .init(t: t, rowID: "fig")).ok.body.json
            checks.expect(item.at == [0, 6] && item.row.text == "Fig", "getItem: fig at \(item.at)")
            let problem = try await client.getItem(path: .init(t: t, rowID: "no-such-row")).notFound.body
                .application_problem_plus_json
            checks.expect(problem.status == 404, "getItem: 404 for an unknown id")
        }
        await checks.step("reloadItem") {
            let row = Row(id: "fig", text: "Figs", detail: "purple")
            made(
                try await client.reloadItem(path: .init(t: t, rowID: "fig"), body: .json(row)).ok.body.json,
                "reloadItem")
        }
        await checks.step("patchItem") {
            let change = try await client.patchItem(
                path: .init(t: t, rowID: "fig"), body: .application_merge_hyphen_patch_plus_json(.init(text: "Fig"))
            ).ok.body.json
            made(change, "patchItem")
            let row = change.batch.reloadRows?.first?.row
            checks.expect(row?.text == "Fig" && row?.detail == "purple", "patchItem: the text changed, the detail kept")
        }
        await checks.step("reconfigureItem") {
            let change = try await client.reconfigureItem(
                path: .init(t: t, rowID: "fig"), body: .json(Row(text: "Fig", detail: "purple"))
            ).ok.body.json
            made(change, "reconfigureItem")
            checks.expect(change.batch.reloadRows?.first?.row.text == "Fig", "reconfigureItem: the new text")
        }
        await checks.step("moveItem") {
            let change = try await client.moveItem(
                path: .init(t: t, rowID: "fig"), body: .json(.init(beforeItem: "apricot"))
            )
            .ok.body.json
            made(change, "moveItem")
            checks.expect(change.batch.moveRows?.first?.to == [0, 0], "moveItem: to [0,0]")
        }
        await checks.step("setItemSwitchOn") {
            made(
                try await client.setItemSwitchOn(path: .init(t: t, rowID: "apple"), body: .json(.init(on: false)))
                    .ok.body.json, "setItemSwitchOn")
        }
        await checks.step("pressItemAccessoryButton") {
            let change = try await client.pressItemAccessoryButton(path: .init(t: t, rowID: "date")).ok.body.json
            made(change, "pressItemAccessoryButton")
            checks.expect(change.batch.press?.id == "date", "pressItemAccessoryButton: date")
        }
        await checks.step("selectItem") {
            let change = try await client.selectItem(path: .init(t: t, rowID: "banana")).ok.body.json
            made(change, "selectItem")
            checks.expect(change.batch.reloadRows?.first?.row.selected == true, "selectItem: selected")
        }
        await checks.step("deselectItem") {
            let change = try await client.deselectItem(path: .init(t: t, rowID: "banana")).ok.body.json
            made(change, "deselectItem")
            checks.expect(change.batch.reloadRows?.first?.row.selected == false, "deselectItem: deselected")
        }
        await checks.step("deleteItem") {
            let change = try await client.deleteItem(path: .init(t: t, rowID: "okra")).ok.body.json
            made(change, "deleteItem")
            checks.expect(change.batch.deleteRows == [[1, 4]], "deleteItem: okra at [1,4]")
        }
        await checks.step("insertSectionsByID one") {
            let body = Components.Schemas.SectionInsertByID.case1(
                .init(section: Self.section("grains", "Grains", [Fixture.item("rice", "Rice")]), afterSection: "fruit"))
            made(
                try await client.insertSectionsByID(path: .init(t: t), body: .json(body)).ok.body.json,
                "insertSectionsByID")
        }
        await checks.step("insertSectionsByID several") {
            let body = Components.Schemas.SectionInsertByID.case2(
                .init(sections: [Self.section("nuts", "Nuts", [Fixture.item("almond", "Almond")])]))
            made(
                try await client.insertSectionsByID(path: .init(t: t), body: .json(body)).ok.body.json,
                "insertSectionsByID")
        }
        await checks.step("reloadSectionByID") {
            let change = try await client.reloadSectionByID(
                path: .init(t: t, sectionID: "grains"), body: .json(.init(header: "Cereals"))
            ).ok.body.json
            made(change, "reloadSectionByID")
            checks.expect(change.batch.reloadSections?.first?.section.header == "Cereals", "reloadSectionByID: header")
        }
        await checks.step("patchSectionByID") {
            let change = try await client.patchSectionByID(
                path: .init(t: t, sectionID: "grains"), body: .json(.init(footer: "Whole"))
            ).ok.body.json
            made(change, "patchSectionByID")
            let section = change.batch.reloadSections?.first?.section
            checks.expect(
                section?.header == "Cereals" && section?.footer == "Whole", "patchSectionByID: footer set, header kept")
        }
        await checks.step("moveSectionByID") {
            let change = try await client.moveSectionByID(
                path: .init(t: t, sectionID: "nuts"), body: .json(.init(beforeSection: "fruit"))
            ).ok.body.json
            made(change, "moveSectionByID")
            checks.expect(
                change.batch.moveSections?.first.map { [$0.from, $0.to] } == [3, 0], "moveSectionByID: 3 to 0")
        }
        await checks.step("deleteSectionByID") {
            let change = try await client.deleteSectionByID(path: .init(t: t, sectionID: "grains")).ok.body.json
            made(change, "deleteSectionByID")
            checks.expect(change.batch.deleteSections == [2], "deleteSectionByID: section 2")
        }
        await checks.step("applyEditsByID") {
            let edits: [Components.Schemas.IdentifiedEdit] = [
                .InsertItemsBefore(.init(insertItems: [Fixture.item("walnut", "Walnut")], beforeItem: "almond")),
                .InsertItemsAfter(.init(insertItems: [Fixture.item("hazel", "Hazel")], afterItem: "almond")),
                .AppendItems(.init(appendItems: [Fixture.item("pecan", "Pecan")], toSection: "nuts")),
                .DeleteItems(.init(deleteItems: ["pecan"])),
                .MoveItemBefore(.init(moveItem: "hazel", beforeItem: "walnut")),
                .MoveItemAfter(.init(moveItem: "hazel", afterItem: "almond")),
                .MoveItemToSection(.init(moveItem: "walnut", toSection: "vegetables")),
                .ReloadItems(.init(reloadItems: [Fixture.item("almond", "Almonds")])),
                .ReconfigureItems(.init(reconfigureItems: [Fixture.item("hazel", "Hazelnut")])),
                .InsertSectionsBefore(
                    .init(insertSections: [Self.section("seeds", "Seeds", [])], beforeSection: "nuts")),
                .InsertSectionsAfter(
                    .init(insertSections: [Self.section("roots", "Roots", [])], afterSection: "vegetables")),
                .AppendSections(.init(appendSections: [Self.section("spices", "Spices", [])])),
                .DeleteSectionsByID(.init(deleteSections: ["spices"])),
                .MoveSectionBefore(.init(moveSection: "roots", beforeSection: "seeds")),
                .MoveSectionAfter(.init(moveSection: "roots", afterSection: "vegetables")),
                .ReloadSectionsByID(
                    .init(reloadSections: [.init(value1: .init(header: "Seeds!"), value2: .init(id: "seeds"))])),
            ]
            let change = try await client.applyEditsByID(path: .init(t: t), body: .json(.init(edits: edits))).ok.body
                .json
            made(change, "applyEditsByID")
            let table = try await client.getTable(path: .init(t: t)).ok.body.json.value1
            let sections = (table.sections ?? []).map { $0.id ?? "" }
            checks.expect(sections == ["seeds", "nuts", "fruit", "vegetables", "roots"], "applyEditsByID: \(sections)")
            checks.expect(
                table.texts == [
                    [], ["Almonds", "Hazelnut"], ["Fig", "Apricot", "Apple", "Banana", "Cherry", "Date", "Elderberry"],
                    ["Leek", "Onion", "Pea", "Kale", "Walnut"], [],
                ], "applyEditsByID: \(table.texts)")
            checks.expect(table.sections?.first?.header == "Seeds!", "applyEditsByID: the reloaded header")
        }
    }
}
