/// Health, readiness, metrics and the OpenAPI document itself.
@MainActor
struct SystemChecks {
    let client: Client
    let checks: Checks

    /// Runs the checks; the operations the served document names.
    func run() async -> Set<String> {
        var documented: Set<String> = []
        await checks.step("health") {
            checks.expect(try await client.health().ok.body.json.status == "ok", "health: ok")
        }
        await checks.step("readiness") {
            checks.expect(try await client.readiness().ok.body.json.status != nil, "readiness: a status")
        }
        await checks.step("metrics") {
            let metrics = try await text(client.metrics().ok.body.plainText)
            checks.expect(metrics.contains("http_requests_total{"), "metrics: http_requests_total")
        }
        await checks.step("openAPI") {
            documented = operationIDs(of: try await client.openAPI().ok.body.json)
        }
        return documented
    }
}
