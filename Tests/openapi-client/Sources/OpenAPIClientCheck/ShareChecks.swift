/// Share links (docs/ACCESS.md, "Share links"): the demo server has no access
/// policy, so it mints and opens none; Sign Out answers all the same.
@MainActor
struct ShareChecks {
    let client: Client
    let checks: Checks

    func run() async {
        let t = Fixture.id
        await checks.step("mintShareLink") {
            let problem = try await client.mintShareLink(
                path: .init(t: t), body: .json(.init(right: .read, expiresIn: 600))
            ).forbidden.body.application_problem_plus_json
            checks.expect(problem._type == "no-share-links", "mintShareLink: 403 no-share-links without a policy")
        }
        await checks.step("openShareLink") {
            let html = try await text(
                client.openShareLink(path: .init(t: t), query: .init(key: "no-such-key")).notFound.body.html)
            checks.expect(html.contains("no share links"), "openShareLink: 404 page without a policy")
        }
        await checks.step("signOut") {
            // URLSession follows the 303 to the list of tables.
            switch try await client.signOut() {
            case .seeOther: checks.expect(true, "signOut: 303")
            case .undocumented(let status, _): checks.expect(status == 200, "signOut: followed to / (\(status))")
            case .forbidden: checks.expect(false, "signOut: refused as from another site")
            }
        }
    }
}
