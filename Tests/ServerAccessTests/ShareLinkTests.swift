import AccessTokens
import MicroHTTP
import MicroHTTPTesting
import TableAccess
import TableServer
import TableServerTesting
import Testing

/// Minting and opening share links (docs/ACCESS.md, "Share links"): only an
/// admin of a table mints one; opening it sets the cookie and redirects to
/// the clean page; a link expired, forged, changed or for another table sets
/// nothing.
@Suite struct ShareLinkTests {
    @Test(arguments: TestTransport.allCases)
    func onlyAnAdminOfTheTableMintsALink(_ transport: TestTransport) async throws {
        try await ShareFixture.run(transport) { share in
            let anonymous = try share.mint(#"{"right":"read"}"#, headers: ShareFixture.plain)
            #expect(anonymous.status == 401)
            #expect(try anonymous.json["type"]?.string == "unauthorized")
            let reader = try await share.token(sub: "reader")
            let editor = try await share.token(sub: "e", roles: ["editor"])
            for token in [reader, editor] {
                let refused = try share.mint(#"{"right":"read"}"#, headers: ShareFixture.bearer(token))
                #expect(refused.status == 403)
                #expect(try refused.json["type"]?.string == "missing-right")
                #expect(try refused.json["detail"]?.string == #"this needs the admin right on table "t""#)
            }
            let minted = try share.mint(#"{"right":"edit","expiresIn":600}"#)
            #expect(minted.status == 201)
            let url = try minted.json["url"]?.string ?? ""
            #expect(url.hasPrefix("/tables/t/share?key="))
            #expect(minted.headers["Location"] == url)
            #expect(minted.headers["Cache-Control"] == "no-store")
            #expect(try minted.json["table"]?.string == "t")
            #expect(try minted.json["right"]?.string == "edit")
            let expiresAt = try minted.json["expiresAt"]?.int ?? 0
            #expect((ShareFixture.now + 598...ShareFixture.now + 600).contains(expiresAt))
            // A day when `expiresIn` is left out.
            let day = try share.mint(#"{"right":"read"}"#).json["expiresAt"]?.int ?? 0
            #expect((ShareFixture.now + 86_398...ShareFixture.now + 86_400).contains(day))
        }
    }

    @Test func aBadRequestForALinkIsRefusedSayingWhy() async throws {
        try await ShareFixture.run(.inProcess) { share in
            let refusals = [
                (#"{"right":"admin"}"#, #""right" is "read" or "edit""#),
                (#"{"expiresIn":60}"#, #""right" is "read" or "edit""#),
                (#"{"right":"read","expiresIn":0}"#, "from 1 to 2592000 (30 days)"),
                (#"{"right":"read","expiresIn":2592001}"#, "from 1 to 2592000 (30 days)"),
                (#"{"right":"read","expiresIn":1.5}"#, "whole number of seconds"),
                (#"{"right":"read","table":"other"}"#, #"unknown member "table""#),
                ("[]", "a JSON object"),
            ]
            for (body, reason) in refusals {
                let refused = try share.mint(body)
                #expect(refused.status == 400, "\(body)")
                #expect(try refused.json["type"]?.string == "bad-share-link", "\(body)")
                #expect(try refused.json["detail"]?.string?.contains(reason) == true, "\(body)")
            }
            #expect(try share.mint(#"{"right":"read"}"#, table: "nowhere").status == 404)
        }
    }

    @Test(arguments: TestTransport.allCases)
    func openingALinkSetsItsCookieAndRedirectsToTheCleanPage(_ transport: TestTransport) async throws {
        try await ShareFixture.run(transport) { share in
            let key = try share.key("read")
            let opened = try share.client.request(.GET, "/tables/t/share?key=\(key)", headers: ["Host": "127.0.0.1"])
            #expect(opened.status == 303)
            #expect(opened.headers["Location"] == "/tables/t")
            #expect(opened.headers["Cache-Control"] == "no-store")
            let cookie = opened.headers["Set-Cookie"] ?? ""
            #expect(cookie.hasPrefix("webtableview-share=\(key); Max-Age="))
            #expect(cookie.hasSuffix("; Path=/; HttpOnly; SameSite=Strict"))
            let maxAge = Int(cookie.split(separator: ";")[1].dropFirst(" Max-Age=".count)) ?? 0
            #expect((595...600).contains(maxAge))
            // Behind a proxy that says the request came over HTTPS, the cookie is Secure.
            let secure = try share.client.request(
                .GET, "/tables/t/share?key=\(key)", headers: ["Host": "127.0.0.1", "X-Forwarded-Proto": "https"])
            #expect(secure.headers["Set-Cookie"]?.hasSuffix("; SameSite=Strict; Secure") == true)
        }
    }

    @Test(arguments: TestTransport.allCases)
    func aLinkExpiredForgedChangedOrForAnotherTableSetsNoCookie(_ transport: TestTransport) async throws {
        try await ShareFixture.run(transport) { share in
            let expired = ShareFixture.links.key(
                for: ShareGrant(table: "t", right: .read, expiresAt: ShareFixture.now - 10))
            let forged = ShareLinks(secret: "another-secret-of-forty-bytes-for-tests!").key(
                for: ShareGrant(table: "t", right: .edit, expiresAt: ShareFixture.now + 600))
            let read = try share.key("read")
            let changed = read.replacingOccurrences(of: ".read.", with: ".edit.")
            let cut = String(read.dropLast(2))
            let refusals = [
                ("/tables/t/share?key=\(expired)", 401, "has expired"),
                ("/tables/t/share?key=\(forged)", 401, "is not valid"),
                ("/tables/t/share?key=\(changed)", 401, "is not valid"),
                ("/tables/t/share?key=\(cut)", 401, "is not valid"),
                ("/tables/t/share?key=\(try share.key("read", table: "other"))", 403, "for another table"),
                ("/tables/t/share", 400, "has no key"),
            ]
            for (path, status, reason) in refusals {
                let refused = try share.client.request(.GET, path, headers: ["Host": "127.0.0.1"])
                #expect(refused.status == status, "\(reason)")
                #expect(refused.headers["Set-Cookie"] == nil, "\(reason)")
                #expect(refused.headers["Content-Type"]?.hasPrefix("text/html") == true, "\(reason)")
                #expect(refused.text.contains(reason), "\(reason)")
            }
            // Nor is such a key, sent as the cookie, a credential: the request is anonymous.
            for key in [expired, forged, changed] {
                #expect(
                    try share.client.request(.GET, "/api/tables/t", headers: ShareFixture.cookie(key)).status == 401)
            }
        }
    }

    @Test func aServerWithoutTheSecretMakesNoLinks() async throws {
        let server = try makeServer { options in
            options.accessPolicy = try! AccessPolicy(json: testPolicy)
            options.token = AccessMatrixTests.editToken
        }
        let client = TestClient(router: server.router)
        let minted = try client.request(
            .POST, "/api/tables/t/share", headers: ShareFixture.admin, body: Array(#"{"right":"read"}"#.utf8))
        #expect(minted.status == 403)
        #expect(try minted.json["type"]?.string == "no-share-links")
        #expect(try client.request(.GET, "/tables/t/share?key=x", headers: ["Host": "127.0.0.1"]).status == 404)
    }

    /// The request log names a link's path, never its key, nor the cookie.
    @Test func neitherTheKeyNorTheCookieIsLogged() async throws {
        let log = LogRecorder()
        let server = try makeServer(logger: log.logger) { options in
            options.accessPolicy = try! AccessPolicy(json: testPolicy)
            options.token = AccessMatrixTests.editToken
            options.shareLinks = ShareFixture.links
        }
        let port = try server.start()
        defer { server.shutdown() }
        let client = TestClient(port: port)
        let minted = try client.request(
            .POST, "/api/tables/t/share", headers: ShareFixture.admin, body: Array(#"{"right":"read"}"#.utf8))
        let url = try minted.json["url"]?.string ?? ""
        let key = String(url.split(separator: "=", maxSplits: 1).last ?? "")
        #expect(try client.request(.GET, url, headers: ["Host": "127.0.0.1"]).status == 303)
        #expect(try client.request(.GET, "/api/tables/t", headers: ShareFixture.cookie(key)).status == 200)
        // A log line is written once its answer is sent, on the connection's
        // worker thread, maybe after the next request's: wait for both.
        let lines = ["GET /tables/t/share 303", "GET /api/tables/t 200"]
        #expect(eventually { lines.allSatisfy { line in log.messages.contains { $0.hasPrefix(line) } } })
        let logged = log.messages
        #expect(!key.isEmpty && !logged.contains { $0.contains(key) })
    }
}
