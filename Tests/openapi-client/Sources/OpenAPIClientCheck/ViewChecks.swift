/// Views (docs/API.md, "Views"): `q`, `filter[KEY]`, `filter[KEY][OP]`, `sort`
/// and `group` on the reads that take them, and a view parameter refused.
@MainActor
struct ViewChecks {
    let client: Client
    let checks: Checks

    func run() async {
        let t = Fixture.id
        await checks.step("getTable view") {
            let answer = try await client.getTable(
                path: .init(t: t), query: .init(filter: .init(additionalProperties: ["detail": "red"]), sort: "-text")
            ).ok
            checks.expect(
                try answer.body.json.value1.texts == [["Cherry", "Apple"]], "getTable view: red rows by -text")
            checks.expect(answer.headers.ETag?.contains("-v") == true, "getTable view: the view's ETag")
        }
        await checks.step("getTable bad view") {
            let problem = try await client.getTable(path: .init(t: t), query: .init(sort: "population")).badRequest.body
                .application_problem_plus_json
            checks.expect(problem._type == "bad-view-parameter", "getTable: 400 bad-view-parameter")
        }
        await checks.step("listSections view") {
            let sections = try await client.listSections(path: .init(t: t), query: .init(group: "detail")).ok.body.json
                .sections
            let headers = sections.prefix(6).map { $0.header ?? "" }
            checks.expect(headers == ["black", "brown", "green", "purple", "red", "ripe"], "group=detail: \(headers)")
        }
        await checks.step("listRows view") {
            let page = try await client.listRows(
                path: .init(t: t, s: 1), query: .init(offset: 1, limit: 2, q: "a", sort: "text")
            ).ok
            let rows = try page.body.json
            checks.expect(rows.total == 5, "listRows view: 5 rows of fruit with an a, got \(rows.total)")
            checks.expect(rows.rows.map { $0.text ?? "" } == ["Apricot", "Banana"], "listRows view: a page of them")
            checks.expect(page.headers.Link?.contains("q=a") == true, "listRows view: Link keeps the view")
        }
        await checks.step("getRow view") {
            let row = try await client.getRow(
                path: .init(t: t, s: 0, r: 0),
                query: .init(
                    filter: .init(additionalProperties: ["section": "vegetables", "text][gte": "L"]), sort: "-text")
            ).ok.body.json
            checks.expect(row.text == "Walnut", "getRow view: the last vegetable from L on, got \(row.text ?? "none")")
        }
    }
}
