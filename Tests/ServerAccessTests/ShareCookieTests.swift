import MicroHTTP
import MicroHTTPTesting
import TableServerTesting
import Testing

/// A share link's cookie at work (docs/ACCESS.md, "Share links"): its one
/// right on its one table, edits refused from another site, the page it
/// sees, and sign-out.
@Suite struct ShareCookieTests {
    static let select = "/api/tables/t/sections/0/rows/0/select"

    @Test(arguments: TestTransport.allCases)
    func aReadLinkReadsItsTableAndNothingElse(_ transport: TestTransport) async throws {
        try await ShareFixture.run(transport) { share in
            let cookie = ShareFixture.cookie(try share.key("read"))
            let read = try share.client.request(.GET, "/api/tables/t", headers: cookie)
            #expect(read.status == 200)
            #expect(read.headers["Cache-Control"] == "no-store")
            #expect(
                try share.client.request(.GET, "/api/tables", headers: cookie).json["tables"]?[0]?["id"]?.string == "t")
            let other = try share.client.request(.GET, "/api/tables/other", headers: cookie)
            #expect(other.status == 403)
            #expect(try other.json["detail"]?.string == #"this needs the read right on table "other""#)
            let edit = try share.client.request(.POST, Self.select, headers: cookie)
            #expect(edit.status == 403)
            #expect(try edit.json["detail"]?.string == #"this needs the edit right on table "t""#)
            // A share link mints no other.
            #expect(try share.mint(#"{"right":"read"}"#, headers: cookie).status == 403)
        }
    }

    @Test(arguments: TestTransport.allCases)
    func anEditLinkEditsFromItsOwnSiteOnly(_ transport: TestTransport) async throws {
        try await ShareFixture.run(transport) { share in
            let cookie = ShareFixture.cookie(try share.key("edit"))
            #expect(try share.client.request(.POST, Self.select, headers: cookie).status == 200)
            var crossSite = cookie
            crossSite.set("Origin", "https://elsewhere.example")
            let refused = try share.client.request(.POST, "/api/tables/t/sections/0/rows/1/select", headers: crossSite)
            #expect(refused.status == 403)
            #expect(try refused.json["type"]?.string == "cross-site-request")
            var fetched = cookie
            fetched.remove("Origin")
            fetched.set("Sec-Fetch-Site", "cross-site")
            #expect(
                try share.client.request(.POST, "/api/tables/t/sections/0/rows/1/select", headers: fetched).status
                    == 403)
            let rows = try share.client.request(.GET, "/api/tables/t", headers: cookie).json["sections"]?[0]?["rows"]
            #expect(rows?[0]?["selected"] == .bool(true))
            #expect(rows?[1]?["selected"] != .bool(true))
            #expect(try share.client.request(.GET, "/api/tables/other", headers: cookie).status == 403)
        }
    }

    @Test(arguments: TestTransport.allCases)
    func thePageNamesWhoIsSignedInAndOffersEditingOnlyWithTheEditRight(_ transport: TestTransport) async throws {
        try await ShareFixture.run(transport) { share in
            let readPage = try share.client.request(
                .GET, "/tables/t", headers: ShareFixture.cookie(try share.key("read"))
            ).text
            #expect(readPage.contains(#"<body class="table-page plain" data-read-only="true">"#))
            #expect(readPage.contains(#"<span class="nav-signed-in" title="Signed in">shared link: read</span>"#))
            #expect(readPage.contains(#"<form class="nav-session" method="post" action="/sign-out">"#))
            #expect(readPage.contains("Sign Out</button>"))
            // The row's detail page and a section's further rows name them too.
            for path in ["/tables/t/rows/a0", "/tables/t/sections/0?offset=2"] {
                let page = try share.client.request(.GET, path, headers: ShareFixture.cookie(try share.key("read")))
                #expect(page.status == 200, "\(path)")
                #expect(page.text.contains(#"title="Signed in">shared link: read</span>"#), "\(path)")
            }
            let editPage = try share.client.request(
                .GET, "/tables/t", headers: ShareFixture.cookie(try share.key("edit"))
            ).text
            #expect(editPage.contains(#"<body class="table-page plain">"#))
            #expect(editPage.contains("shared link: edit"))
            // A bearer token's sub, escaped; no sign-out, as no cookie holds it.
            let token = try await share.token(sub: "<b>ed</b>", roles: ["editor"])
            let bearerPage = try share.client.request(.GET, "/tables/t", headers: ShareFixture.bearer(token)).text
            #expect(bearerPage.contains(#"title="Signed in">&lt;b&gt;ed&lt;/b&gt;</span>"#))
            #expect(!bearerPage.contains("<b>ed"))
            #expect(!bearerPage.contains("Sign Out"))
            #expect(!bearerPage.contains("data-read-only"))
            let reader = try await share.token(sub: "reader")
            #expect(
                try share.client.request(.GET, "/tables/t", headers: ShareFixture.bearer(reader)).text.contains(
                    #"data-read-only="true""#))
        }
    }

    @Test func aPageWithoutAPolicyIsAsBefore() throws {
        let page = try TestClient(router: try makeServer().router).request(.GET, "/tables/t").text
        #expect(page.contains(#"<body class="table-page plain">"#))
        #expect(!page.contains("nav-session"))
    }

    @Test(arguments: TestTransport.allCases)
    func signOutClearsTheCookieFromItsOwnSiteOnly(_ transport: TestTransport) async throws {
        try await ShareFixture.run(transport) { share in
            let cookie = ShareFixture.cookie(try share.key("read"))
            let out = try share.client.request(.POST, "/sign-out", headers: cookie)
            #expect(out.status == 303)
            #expect(out.headers["Location"] == "/")
            #expect(out.headers["Set-Cookie"] == "webtableview-share=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict")
            // The page's Sign Out form, which a browser posts with Origin: null (Referrer-Policy: no-referrer).
            var form = cookie
            form.set("Origin", "null")
            form.set("Sec-Fetch-Site", "same-origin")
            #expect(try share.client.request(.POST, "/sign-out", headers: form).status == 303)
            var crossSite = cookie
            crossSite.set("Origin", "https://elsewhere.example")
            let refused = try share.client.request(.POST, "/sign-out", headers: crossSite)
            #expect(refused.status == 403)
            #expect(refused.headers["Set-Cookie"] == nil)
        }
    }

    /// A kept answer (docs/ARCHITECTURE.md) is never sent to a request with a
    /// cookie, nor is one made for a cookie kept for others.
    @Test func aKeptAnswerIsNeitherSentToNorMadeForACookie() async throws {
        try await ShareFixture.run(.live, policy: #"{"anonymous": "read"}"#) { share in
            // Nothing else keeps these requests from a kept answer: no Origin, no query.
            let plain: HTTPHeaders = ["Host": "127.0.0.1"]
            var cookie = plain
            cookie.set("Cookie", "webtableview-share=\(try share.key("edit"))")
            for _ in 0..<3 {
                #expect(
                    try share.client.request(.GET, "/api/tables/t", headers: plain).headers["Cache-Control"]
                        == "private, no-cache")
            }
            for _ in 0..<3 {
                #expect(
                    try share.client.request(.GET, "/api/tables/t", headers: cookie).headers["Cache-Control"]
                        == "no-store")
            }
            #expect(
                try share.client.request(.GET, "/api/tables/t", headers: plain).headers["Cache-Control"]
                    == "private, no-cache")
        }
    }
}
