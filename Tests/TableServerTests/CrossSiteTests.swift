import JSON
import MicroHTTP
import MicroHTTPTesting
import TableServer
import TableServerTesting
import Testing

/// DNS rebinding, cross-site edits, CORS and the headers a browser-facing
/// server sends (docs/RELIABILITY.md, "Cross-site requests").
@Suite struct CrossSiteTests {
    let batch = body(#"{"deleteRows": [[0, 0]]}"#)

    func version(_ client: TestClient) throws -> Int? {
        try client.request(.GET, "/api/tables/t").json["version"]?.int
    }

    @Test func aRebindingHostIsAnswered421AndChangesNothing() throws {
        try withServer(.live) { client in
            var headers = jsonHeaders
            headers.set("Host", "rebind.attacker.example")
            let edit = try client.request(.POST, "/api/tables/t/batch", headers: headers, body: batch)
            #expect(edit.status == 421)
            #expect(try edit.json["type"]?.string == "misdirected-request")
            #expect(try edit.json["title"]?.string == "Misdirected Request")
            #expect(try edit.json["detail"]?.string?.contains("each name given with --allowed-host NAME") == true)
            #expect(
                try client.request(.GET, "/api/tables/t", headers: ["Host": "rebind.attacker.example:\(client.port!)"])
                    .status == 421)
            #expect(try version(client) == 0)
            for host in ["localhost:\(client.port!)", "127.0.0.1", "[::1]:\(client.port!)", "LOCALHOST"] {
                #expect(try client.request(.GET, "/api/tables/t", headers: ["Host": host]).status == 200, "\(host)")
            }
        }
    }

    @Test func allowedHostsAreServedToo() throws {
        let configure: (inout ServerOptions) -> Void = { $0.allowedHosts = ["tables.example"] }
        try withServer(.live, configure: configure) { client in
            let allowed = try client.request(.GET, "/api/tables/t", headers: ["Host": "tables.example:8080"])
            #expect(allowed.status == 200)
            let other = try client.request(.GET, "/api/tables/t", headers: ["Host": "other.example"])
            #expect(other.status == 421)
        }
    }

    @Test func crossSiteEditsAreRefused() throws {
        try withServer(.live) { client in
            let ours = "http://127.0.0.1:\(client.port!)"
            let host = "127.0.0.1:\(client.port!)"
            for headers: HTTPHeaders in [
                ["Content-Type": "text/plain", "Origin": "null", "Host": host],
                ["Content-Type": "text/plain", "Origin": "http://evil.example", "Host": host],
                ["Content-Type": "text/plain", "Origin": "http://127.0.0.1:1", "Host": host],
                ["Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site", "Host": host],
                ["Content-Type": "text/plain", "Origin": "null", "Sec-Fetch-Site": "cross-site", "Host": host],
                ["Content-Type": "text/plain", "Origin": "null", "Sec-Fetch-Site": "same-site", "Host": host],
            ] {
                let select = try client.request(
                    .POST, "/api/tables/t/sections/0/rows/0/select", headers: headers, body: body("x"))
                #expect(select.status == 403, "\(headers)")
                #expect(try select.json["type"]?.string == "cross-site-request")
            }
            #expect(try version(client) == 0)
            let sameOrigin = try client.request(
                .POST, "/api/tables/t/sections/0/rows/0/select",
                headers: ["Origin": ours, "Host": host, "Sec-Fetch-Site": "same-origin"])
            #expect(sameOrigin.status == 200)
            // A form of our page, under its Referrer-Policy: no-referrer, says Origin: null.
            let form = try client.request(
                .POST, "/api/tables/t/sections/0/rows/1/select",
                headers: ["Origin": "null", "Host": host, "Sec-Fetch-Site": "same-origin"])
            #expect(form.status == 200)
            let tool = try client.request(.POST, "/api/tables/t/batch", headers: jsonHeaders, body: batch)
            #expect(tool.status == 200)
        }
    }

    @Test func corsIsOffByDefault() throws {
        try withServer(.live) { client in
            let preflight = try client.request(
                .OPTIONS, "/api/tables/t/batch",
                headers: ["Origin": "http://app.example", "Access-Control-Request-Method": "POST"])
            #expect(preflight.headers["Access-Control-Allow-Origin"] == nil)
            #expect(
                try client.request(.GET, "/api/tables/t", headers: ["Origin": "http://app.example"])
                    .headers["Access-Control-Allow-Origin"] == nil)
        }
    }

    @Test func anAllowedOriginGetsPreflightsAndMayEdit() throws {
        let app = "http://app.example:3000"
        let configure: (inout ServerOptions) -> Void = { $0.corsOrigins = [app] }
        try withServer(.live, configure: configure) { client in
            let preflight = try client.request(
                .OPTIONS, "/api/tables/t/batch",
                headers: [
                    "Origin": app, "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "content-type, if-match",
                ])
            #expect(preflight.status == 204)
            #expect(preflight.headers["Access-Control-Allow-Origin"] == app)
            #expect(preflight.headers["Access-Control-Allow-Methods"] == "POST, OPTIONS")
            let allowedHeaders = preflight.headers["Access-Control-Allow-Headers"]?.lowercased() ?? ""
            #expect(allowedHeaders.contains("content-type") && allowedHeaders.contains("if-match"))
            #expect(preflight.headers["Vary"] == "Origin")

            var headers = jsonHeaders
            headers.set("Origin", app)
            let edit = try client.request(.POST, "/api/tables/t/batch", headers: headers, body: batch)
            #expect(edit.status == 200)
            #expect(edit.headers["Access-Control-Allow-Origin"] == app)
            #expect(edit.headers["Access-Control-Expose-Headers"]?.contains("ETag") == true)
            // Read twice: the second may come from the kept answers, which carry no CORS fields.
            for _ in 0..<2 {
                #expect(
                    try client.request(.GET, "/api/tables/t", headers: ["Origin": app]).headers[
                        "Access-Control-Allow-Origin"] == app)
            }
            headers.set("Origin", "http://other.example")
            #expect(try client.request(.POST, "/api/tables/t/batch", headers: headers, body: batch).status == 403)
        }
    }

    @Test func everyAnswerCarriesTheSecurityHeaders() throws {
        try withServer(.live) { client in
            for path in ["/tables/t", "/api/tables/t", "/api/tables/t", "/public/tableview.js", "/nowhere"] {
                let response = try client.request(.GET, path)
                let policy = response.headers["Content-Security-Policy"] ?? ""
                #expect(policy.contains("script-src 'self'"), "\(path)")
                #expect(policy.contains("frame-ancestors 'none'"), "\(path)")
                #expect(response.headers["X-Content-Type-Options"] == "nosniff", "\(path)")
                #expect(response.headers["Referrer-Policy"] == "no-referrer", "\(path)")
            }
        }
    }

    @Test func thePageHasNoInlineScriptsOrHandlers() throws {
        try withServer(.inProcess) { client in
            let page = try client.request(.GET, "/tables/t").text
            #expect(
                page.range(
                    of: #"<script type="module" src="/[a-z0-9/]*/tableview\.js"></script>"#, options: .regularExpression
                ) != nil)
            #expect(page.components(separatedBy: "<script").count == 2)
            #expect(page.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil)
        }
    }

    @Test func servingBeyondLoopbackWithoutATokenIsWarnedAbout() {
        var options = ServerOptions()
        #expect(options.exposureWarning == nil)
        options.host = "0.0.0.0"
        #expect(options.exposureWarning?.contains("without a token") == true)
        options.token = "secret"
        #expect(options.exposureWarning == nil)
        options.token = nil
        options.host = "::1"
        #expect(options.exposureWarning == nil)
    }
}
