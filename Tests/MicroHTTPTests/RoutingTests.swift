@testable import MicroHTTP
import MicroHTTPTesting
import Testing

@Suite struct RoutingTests {
    static func router() -> Router {
        var router = Router()
        router.add(.GET, "/") { _ in .text("home") }
        router.add(.GET, "/api/tables") { _ in .text("list") }
        router.add(.POST, "/api/tables") { request in
            HTTPResponse(status: 201, contentType: "text/plain", bytes: request.body)
        }
        router.add(.GET, "/api/tables/{t}") { request in .text("table \(request.parameters["t"] ?? "?")") }
        router.add(.GET, "/api/tables/{t}/sections/{s}/rows/{r}") { request in
            let p = request.parameters
            return .text("\(p["t"] ?? "")|\(p["s"] ?? "")|\(p["r"] ?? "")")
        }
        router.add(.DELETE, "/api/tables/{t}/sections/{s}/rows/{r}") { _ in HTTPResponse(status: 204) }
        router.add(.GET, "/api/tables/special") { _ in .text("literal wins") }
        router.add(.GET, "/public/{path...}") { request in .text("file \(request.parameters["path"] ?? "")") }
        return router
    }

    @Test(arguments: TestTransport.allCases)
    func parametersAreCaptured(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let response = try client.execute(path: "/api/tables/countries/sections/2/rows/17")
            #expect(response.status == 200)
            #expect(response.text == "countries|2|17")
            #expect(try client.execute(path: "/api/tables/countries").text == "table countries")
            #expect(try client.execute(path: "/").text == "home")
        }
    }

    /// A trailing slash or an empty segment that no route has, where a route has
    /// the path without them: 308 there, the query's arguments encoded again.
    @Test(arguments: TestTransport.allCases)
    func nearMissesRedirectToTheRoute(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let slash = try client.execute(path: "/api/tables/")
            #expect(slash.status == 308)
            #expect(slash.headers["Location"] == "/api/tables")
            let post = try client.execute(method: .POST, path: "/api//tables")
            #expect(post.status == 308)
            #expect(post.headers["Location"] == "/api/tables")
            let encoded = try client.execute(
                path: "/api/tables/caf%C3%A9%20bar//sections/1/rows/2/?b=x%26y&a=%C3%A9+1&a=2")
            #expect(encoded.headers["Location"] == "/api/tables/caf%C3%A9%20bar/sections/1/rows/2?a=%C3%A9%201&b=x%26y")
            #expect(try client.execute(path: "/nothing/").status == 404)
            #expect(try client.execute(path: "/").status == 200)
        }
    }

    @Test(arguments: TestTransport.allCases)
    func parametersArePercentDecoded(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let response = try client.execute(path: "/api/tables/caf%C3%A9%20bar")
            #expect(response.text == "table café bar")
        }
    }

    @Test(arguments: TestTransport.allCases)
    func literalSegmentsWinOverParameters(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let response = try client.execute(path: "/api/tables/special")
            #expect(response.text == "literal wins")
        }
    }

    @Test(arguments: TestTransport.allCases)
    func catchAllTakesTheRestOfThePath(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let nested = try client.execute(path: "/public/css/site.css")
            #expect(nested.text == "file css/site.css")
            let flat = try client.execute(path: "/public/app.js")
            #expect(flat.text == "file app.js")
        }
    }

    @Test(arguments: TestTransport.allCases)
    func unknownPathsAreNotFoundProblems(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            for path in ["/nope", "/api/tables/t/sections", "/api/tables/t/sections/", "/api/tables/t/extra/x/y/z/w"] {
                let response = try client.execute(path: path)
                #expect(response.status == 404, "\(path)")
                #expect(response.headers["Content-Type"] == "application/problem+json")
                #expect(response.text.contains("\"type\":\"not-found\""))
                #expect(response.text.contains("\"title\":\"Not Found\""))
                #expect(response.text.contains("\"status\":404"))
            }
        }
    }

    @Test(arguments: TestTransport.allCases)
    func wrongMethodIs405WithAllow(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let response = try client.execute(method: .PUT, path: "/api/tables")
            #expect(response.status == 405)
            #expect(response.headers["Allow"] == "GET, HEAD, POST, OPTIONS")
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.text.contains("\"type\":\"method-not-allowed\""))
            let rows = try client.execute(method: .POST, path: "/api/tables/t/sections/0/rows/1")
            #expect(rows.status == 405)
            #expect(rows.headers["Allow"] == "GET, HEAD, DELETE, OPTIONS")
        }
    }

    @Test(arguments: TestTransport.allCases)
    func headIsAnsweredByGetWithoutBody(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let response = try client.execute(method: .HEAD, path: "/api/tables/countries")
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(response.headers["Content-Length"] == "15")
            #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
        }
    }

    @Test(arguments: TestTransport.allCases)
    func optionsAnswersAllow(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let response = try client.execute(method: .OPTIONS, path: "/api/tables/x/sections/0/rows/0")
            #expect(response.status == 204)
            #expect(response.headers["Allow"] == "GET, HEAD, DELETE, OPTIONS")
            #expect(try client.execute(method: .OPTIONS, path: "/missing").status == 404)
        }
    }

    @Test(arguments: TestTransport.allCases)
    func requestBodyReachesTheHandler(_ transport: TestTransport) throws {
        try withTestServer(Self.router(), transport: transport) { client in
            let body = Array("{\"id\": \"t\"}".utf8)
            let response = try client.execute(method: .POST, path: "/api/tables", body: body)
            #expect(response.status == 201)
            #expect(response.body == body)
        }
    }

    @Test func routesAreListedInRegistrationOrder() {
        let routes = Self.router().routes
        #expect(routes.count == 8)
        #expect(routes[0].method == .GET && routes[0].pattern == "/")
        #expect(routes[2].method == .POST && routes[2].pattern == "/api/tables")
        #expect(routes[7].pattern == "/public/{path...}")
    }

    @Test func explicitHeadAndOptionsRoutesWin() {
        var router = Router()
        router.add(.GET, "/x") { _ in .text("get") }
        router.add(.HEAD, "/x") { _ in HTTPResponse(status: 299) }
        router.add(.OPTIONS, "/x") { _ in HTTPResponse(status: 298) }
        #expect(router.respond(to: HTTPRequest(method: .HEAD, path: "/x")).status == 299)
        #expect(router.respond(to: HTTPRequest(method: .OPTIONS, path: "/x")).status == 298)
    }

    @Test func segmentsAreMatchedOnTheirBytes() {
        var router = Router()
        router.add(.GET, "/a/{x}/b") { request in .text("x=\(request.parameters["x"] ?? "?")") }
        router.add(.GET, "/a/{x}/bb") { request in .text("bb x=\(request.parameters["x"] ?? "?")") }
        router.add(.GET, "/files/{path...}") { request in .text("[\(request.parameters["path"] ?? "?")]") }
        let text = { (path: String) in
            Self.text(of: router.respond(to: HTTPRequest(method: .GET, path: path)))
        }
        #expect(text("/a/é%/b") == "x=é%")
        #expect(text("/a/1/bb") == "bb x=1")
        // A literal is matched whole: a prefix or a longer segment is another path.
        #expect(router.respond(to: HTTPRequest(method: .GET, path: "/a/1/b2")).status == 404)
        #expect(router.respond(to: HTTPRequest(method: .GET, path: "/a/1/")).status == 404)
        // An empty segment is no parameter value.
        #expect(router.respond(to: HTTPRequest(method: .GET, path: "/a//b")).status == 404)
        // The catch-all keeps empty segments and takes nothing when no segment is left.
        #expect(text("/files/x//y/") == "[x//y/]")
        #expect(text("/files/") == "[]")
        #expect(text("/files") == "[]")
        // A string that is not native (bridged, or a slice's copy) routes the same.
        let built = String("/a/\u{2603}/b".utf16.map { Character(UnicodeScalar($0)!) })
        #expect(text(built) == "x=\u{2603}")
        #expect(router.respond(to: HTTPRequest(method: .GET, path: "a/1/b")).status == 404)
        #expect(router.respond(to: HTTPRequest(method: .GET, path: "")).status == 404)
    }

    @Test func aMethodsPositionIsItsPlaceInAllCases() {
        for (index, method) in HTTPMethod.allCases.enumerated() {
            #expect(method.position == index)
        }
    }

    @Test func aPathParameterIsFoundByItsName() {
        var router = Router()
        router.add(.GET, "/{a}/{b}/{rest...}") { request in
            let p = request.parameters
            return .text("\(p["a"] ?? "-")|\(p["b"] ?? "-")|\(p["rest"] ?? "-")|\(p["c"] ?? "-")")
        }
        #expect(Self.text(of: router.respond(to: HTTPRequest(method: .GET, path: "/1/2/3/4"))) == "1|2|3/4|-")
        #expect(HTTPRequest(method: .GET, path: "/").parameters["a"] == nil)
    }

    @Test func the405ListsTheMethodsOfEveryMatchingPattern() {
        var router = Router()
        router.add(.GET, "/t/{x}") { _ in .text("get") }
        router.add(.DELETE, "/t/{x}") { _ in HTTPResponse(status: 204) }
        router.add(.PUT, "/t/special") { _ in HTTPResponse(status: 204) }
        let response = router.respond(to: HTTPRequest(method: .POST, path: "/t/special"))
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET, HEAD, PUT, DELETE, OPTIONS")
        let options = router.respond(to: HTTPRequest(method: .OPTIONS, path: "/t/other"))
        #expect(options.status == 204)
        #expect(options.headers["Allow"] == "GET, HEAD, DELETE, OPTIONS")
    }

    private static func text(of response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }
}
