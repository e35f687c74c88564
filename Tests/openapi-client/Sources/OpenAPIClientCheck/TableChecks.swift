import OpenAPIRuntime

/// The table as a whole: listTables, createTable (JSON, CSV and records), getTable
/// (JSON, CSV, 304), patchTable, replaceTable (a snapshot).
@MainActor
struct TableChecks {
    let client: Client
    let checks: Checks

    func run() async {
        await checks.step("createTable") {
            let created = try await client.createTable(body: .json(.Table(Fixture.table))).created
            checks.expect(created.headers.Location == "/api/tables/\(Fixture.id)", "createTable: Location")
            let table = try created.body.json
            checks.expect(table.value2.id == Fixture.id, "createTable: id")
            checks.expect(table.value1.version == 0, "createTable: version 0")
            checks.expect(table.value1.texts.map(\.count) == [5, 2], "createTable: rows \(table.value1.texts)")
            let accessories = (table.value1.sections?[0].rows ?? []).map(\.accessoryView)
            checks.expect(
                accessories == Fixture.fruit.map(\.accessoryView),
                "createTable: accessory views decoded as sent: \(accessories)")
        }
        await checks.step("createTable CSV") {
            let csv = "text,detail\nOslo,Norway\nBergen,Norway\n"
            let created = try await client.createTable(
                query: .init(table_hyphen_id: "generated-csv"), body: .csv(HTTPBody(csv))
            ).created
            checks.expect(try created.body.json.value1.texts == [["Oslo", "Bergen"]], "createTable CSV: rows")
            _ = try await client.deleteTable(path: .init(t: "generated-csv")).noContent
        }
        await checks.step("createTable records") {
            let records = [
                try OpenAPIObjectContainer(unvalidatedValue: ["name": "Oslo", "population": 709_037]),
                try OpenAPIObjectContainer(unvalidatedValue: ["name": "Bergen"]),
            ]
            let created = try await client.createTable(
                query: .init(table_hyphen_id: "generated-records"), body: .json(.Records(records))
            ).created
            checks.expect(try created.body.json.value1.texts == [["Oslo", "Bergen"]], "createTable records: rows")
            _ = try await client.deleteTable(path: .init(t: "generated-records")).noContent
        }
        await checks.step("listTables") {
            let tables = try await client.listTables().ok.body.json.tables
            let mine = tables.first { $0.id == Fixture.id }
            checks.expect(mine?.title == Fixture.title, "listTables: the created table")
        }
        await checks.step("getTable") {
            let answer = try await client.getTable(path: .init(t: Fixture.id)).ok
            let table = try answer.body.json
            checks.expect(table.value1.texts[1] == ["Carrot", "Leek"], "getTable: rows")
            let etag = answer.headers.ETag ?? ""
            checks.expect(versionOfTag(etag) == 0, "getTable: the ETag of version 0, got \(etag)")
            let again = try await client.getTable(
                path: .init(t: Fixture.id), headers: .init(If_hyphen_None_hyphen_Match: etag))
            checks.expect((try? again.notModified) != nil, "getTable: 304 for If-None-Match")
            let csv = try await text(
                client.getTable(path: .init(t: Fixture.id), query: .init(format: .csv)).ok.body.csv)
            checks.expect(csv.contains("Elderberry,black"), "getTable: CSV rows")
        }
        await checks.step("getTable unknown") {
            let problem = try await client.getTable(path: .init(t: "no-such-table")).notFound.body
                .application_problem_plus_json
            checks.expect(problem._type == "not-found" && problem.status == 404, "getTable: 404 problem")
        }
        await checks.step("patchTable") {
            let properties = Components.Schemas.TableProperties(title: "Patched", allowsMultipleSelection: true)
            let stale = try await client.patchTable(
                path: .init(t: Fixture.id), headers: .init(If_hyphen_Match: "\"7\""), body: .json(properties)
            ).preconditionFailed
            checks.expect(versionOfTag(stale.headers.ETag ?? "") == 0, "patchTable: 412 with the current ETag")
            // The tag as the server sent it: a server without a journal's names its life (docs/API.md, "Caching").
            let current = stale.headers.ETag ?? "\"0\""
            let table = try await client.patchTable(
                path: .init(t: Fixture.id), headers: .init(If_hyphen_Match: current), body: .json(properties)
            ).ok.body.json
            checks.expect(table.value1.title == "Patched" && table.value1.version == 1, "patchTable: title, version 1")
        }
        await checks.step("replaceTable") {
            var snapshot = Fixture.table.value1
            snapshot.title = "Patched"
            snapshot.sections?[0].rows?[1].detail = "ripe"
            let feed = try await client.replaceTable(path: .init(t: Fixture.id), body: .json(.TableSnapshot(snapshot)))
                .ok.body.json
            checks.expect(feed.changes.first?.batch.reloadRows?.map(\.at) == [[0, 1]], "replaceTable: banana reloaded")
            let banana = try await client.getRow(path: .init(t: Fixture.id, s: 0, r: 1)).ok.body.json
            checks.expect(banana.detail == "ripe", "replaceTable: the new detail")
        }
    }
}

/// The version an entity tag names: `"k3f9a2c1.7"` (a server's life and the
/// version) or `"7"`, with a compressed answer's `-br` or `-gzip` after it
/// (docs/API.md, "Caching").
func versionOfTag(_ tag: String) -> Int? {
    let inner = tag.filter { $0 != "\"" }.split(separator: "-").first ?? ""
    return Int(inner.split(separator: ".").last ?? inner)
}
