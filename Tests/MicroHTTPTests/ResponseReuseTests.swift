import MicroHTTP
import MicroHTTPTesting
import Testing

/// Answers a handler declares reusable are sent again without calling it, and
/// only while their revision holds and the request is a plain GET or HEAD.
@Suite struct ResponseReuseTests {
    /// Runs `body` against a live server whose `/items/{i}` answers `item i
    /// at r` (r the revision's value) and `/big` answers `size` bytes, both
    /// reusable; `calls` counts the handlers' calls. One worker thread by
    /// default, so one shelf: each answer is made once a revision. No shared
    /// answers unless `shared` gives them a budget.
    private func withCountingServer(
        budget: Int? = nil,
        shared: Int = 0,
        size: Int = 16,
        threads: Int = 1,
        _ body: (_ revision: Revision, _ calls: Shared<Int>, _ client: TestClient) throws -> Void
    ) throws {
        let revision = Revision(1)
        let calls = Shared(0)
        var router = Router()
        router.add(.GET, "/items/{i}") { request in
            calls.update { $0 += 1 }
            let value = revision.current
            var response = HTTPResponse.text("item \(request.parameters["i"] ?? "") at \(value)")
            response.headers.set("ETag", "\"\(value)\"")
            return response.reusable(while: revision, at: value)
        }
        router.add(.GET, "/big") { _ in
            calls.update { $0 += 1 }
            let value = revision.current
            return HTTPResponse(contentType: "text/plain", bytes: Array(repeating: 0x61, count: size))
                .reusable(while: revision, at: value)
        }
        var configuration = HTTPServer.Configuration(port: 0, threads: threads)
        if let budget {
            configuration.preparedResponseBudget = budget
        }
        configuration.sharedAnswerBudget = shared
        try withLiveServer(router, configuration: configuration) { (server: HTTPServer, client: TestClient) throws in
            try body(revision, calls, client)
            #expect(eventually { server.metrics.requestsInFlight == 0 })
        }
    }

    @Test func aReusableAnswerIsSentAgainWithoutTheHandlerUntilItsRevisionMoves() throws {
        try withCountingServer { (revision, calls, client) throws in
            for _ in 0..<5 {
                let response = try client.request(.GET, "/items/7")
                #expect(response.status == 200)
                #expect(response.text == "item 7 at 1")
                #expect(response.headers["ETag"] == "\"1\"")
                #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
            }
            #expect(calls.value == 1)
            #expect(try client.request(.GET, "/items/8").text == "item 8 at 1")
            #expect(calls.value == 2)

            revision.set(2)
            #expect(try client.request(.GET, "/items/7").text == "item 7 at 2")
            #expect(try client.request(.GET, "/items/7").text == "item 7 at 2")
            #expect(calls.value == 3)
        }
    }

    /// Each worker thread keeps its own answers: a revision's answer is made
    /// at most once per thread, however many connections ask.
    @Test func eachWorkerThreadMakesAnAnswerAtMostOnceARevision() throws {
        try withCountingServer(threads: 2) { (revision, calls, client) throws in
            for _ in 0..<20 {
                #expect(try client.request(.GET, "/items/7").text == "item 7 at 1")
            }
            #expect((1...2).contains(calls.value))
            revision.set(2)
            for _ in 0..<20 {
                #expect(try client.request(.GET, "/items/7").text == "item 7 at 2")
            }
            #expect((2...4).contains(calls.value))
        }
    }

    @Test func keptAnswersAreCountedUnderTheirRoute() throws {
        var router = Router()
        let revision = Revision(1)
        router.add(.GET, "/items/{i}") { _ in HTTPResponse.text("item").reusable(while: revision, at: 1) }
        try withLiveServer(router) { server, client in
            for _ in 0..<4 {
                _ = try client.request(.GET, "/items/1")
            }
            #expect(eventually { server.metrics.totalRequests == 4 })
            #expect(server.metrics.count(method: .GET, route: "/items/{i}", status: 200) == 4)
        }
    }

    @Test func headIsAnsweredFromTheKeptAnswerWithoutItsBody() throws {
        try withCountingServer { (_, calls, client) throws in
            _ = try client.request(.GET, "/items/3")
            let head = try client.request(.HEAD, "/items/3")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers["Content-Length"] == "11")
            #expect(head.headers["ETag"] == "\"1\"")
            #expect(calls.value == 1)
        }
    }

    @Test func queriesConditionsAndBodiesAlwaysReachTheHandler() throws {
        try withCountingServer { (_, calls, client) throws in
            _ = try client.request(.GET, "/items/1")
            _ = try client.request(.GET, "/items/1?x=1")
            _ = try client.request(.GET, "/items/1", headers: ["If-None-Match": "\"9\""])
            _ = try client.request(.GET, "/items/1", body: Array("body".utf8))
            #expect(calls.value == 4)
            _ = try client.request(.GET, "/items/1")
            #expect(calls.value == 4)
        }
    }

    /// A credential (a bearer token, or a cookie that may carry a share
    /// link's) is the access policy's to check: never a kept answer.
    @Test func credentialsAlwaysReachTheHandler() throws {
        try withCountingServer { (_, calls, client) throws in
            _ = try client.request(.GET, "/items/1")
            _ = try client.request(.GET, "/items/1", headers: ["Authorization": "Bearer x"])
            _ = try client.request(.GET, "/items/1", headers: ["Cookie": "webtableview-share=x"])
            #expect(calls.value == 3)
            _ = try client.request(.GET, "/items/1")
            #expect(calls.value == 3)
        }
    }

    @Test func answersOverTheBudgetAreNotKept() throws {
        try withCountingServer(budget: 16 * 1024, size: 2048) { (_, calls, client) throws in
            for _ in 0..<3 {
                #expect(try client.request(.GET, "/big").body.count == 2048)
            }
            #expect(calls.value == 3)
        }
    }

    /// 4 KiB holds 15 answers of 11 bytes and 256 of overhead. Until the
    /// shelf first fills every answer is kept; the 16th empties it, and from
    /// then on an answer is kept on its path's second read since, so reads
    /// spread over more paths than fit do not empty it at every turn.
    @Test func aFullShelfKeepsTheAnswersOfPathsReadAgain() throws {
        try withCountingServer(budget: 4 * 1024) { (revision, calls, client) throws in
            let made = { (items: [Int]) in try Self.made(reading: items, client, revision, calls) }
            #expect(try made(Array(0..<15) + Array(0..<15)) == 15)
            #expect(try made([15, 15]) == 1)
            #expect(try made(Array(16..<40)) == 24)
            // Read once since the shelf was emptied: made again, and kept now.
            #expect(try made([20, 20]) == 1)
            // Emptied away: made at its first read since, kept at its second.
            #expect(try made([0, 0, 0, 15]) == 2)
            // Out of date, a kept path is kept again at its first read.
            revision.set(2)
            #expect(try made([20, 20]) == 1)
            // A path read for the first time is made, not kept.
            #expect(try made([41, 41, 41]) == 2)
        }
    }

    /// A shelf whose answers were sent fewer times than they were made
    /// thrashes: it is emptied and rests, keeping nothing for 8 times the
    /// misses it took to thrash, then keeps paths read again as before.
    @Test func aShelfThatThrashesRestsEmpty() throws {
        try withCountingServer(budget: 4 * 1024) { (revision, calls, client) throws in
            let made = { (items: [Int]) in try Self.made(reading: items, client, revision, calls) }
            #expect(try made(Array(0..<15)) == 15)
            // Full at its 16th miss, with none of its 15 answers sent again: it rests 128 misses.
            #expect(try made([15]) == 1)
            #expect(try made(Array(0..<15)) == 15)
            #expect(try made([0, 0]) == 2)
            #expect(try made(Array(100..<211)) == 111)
            // Rested: a path is kept at its second read again.
            #expect(try made([16, 16, 16, 16]) == 2)
        }
    }

    /// Reads `items` in order from `/items/{i}`; answers how many answers were made.
    private static func made(reading items: [Int], _ client: TestClient, _ revision: Revision, _ calls: Shared<Int>)
        throws
        -> Int
    {
        let before = calls.value
        for item in items {
            #expect(try client.request(.GET, "/items/\(item)").text == "item \(item) at \(revision.current)")
        }
        return calls.value - before
    }

    /// From 256 answers kept on, a shelf is judged before it fills: when
    /// fewer than a quarter of them were sent again, it thrashes and rests.
    @Test func aShelfIsJudgedBeforeItFills() throws {
        try withCountingServer(budget: 1 << 20) { (revision, calls, client) throws in
            let made = { (items: [Int]) in try Self.made(reading: items, client, revision, calls) }
            #expect(try made(Array(0..<256) + Array(0..<63)) == 256)
            // The 257th answer: 63 sent again, fewer than 64: 257 misses × 8 of rest.
            #expect(try made([256, 256]) == 2)
            #expect(try made([0]) == 1)
        }
    }

    /// With shared answers and no shelves, an answer is kept once for every
    /// worker thread: made once a revision however many threads send it.
    @Test func sharedAnswersAreMadeOnceARevisionForEveryThread() throws {
        try withCountingServer(budget: 0, shared: 64 * 1024, threads: 2) { (revision, calls, client) throws in
            for _ in 0..<20 {
                let response = try client.request(.GET, "/items/7")
                #expect(response.text == "item 7 at 1")
                #expect(response.headers["ETag"] == "\"1\"")
                #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
            }
            #expect(calls.value == 1)
            let head = try client.request(.HEAD, "/items/7")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers["Content-Length"] == "11")
            #expect(calls.value == 1)
            revision.set(2)
            for _ in 0..<20 {
                #expect(try client.request(.GET, "/items/7").text == "item 7 at 2")
            }
            #expect(calls.value == 2)
        }
    }

    /// A shelf that does not keep an answer (full, or resting) leaves it to the
    /// shared answers: reads spread over more paths than a shelf holds are
    /// made once each while the shared answers hold them all.
    @Test func sharedAnswersHoldWhatTheShelfDoesNot() throws {
        try withCountingServer(budget: 4 * 1024, shared: 64 * 1024) { (revision, calls, client) throws in
            let made = { (items: [Int]) in try Self.made(reading: items, client, revision, calls) }
            #expect(try made(Array(0..<100)) == 100)
            #expect(try made(Array(0..<100) + Array(0..<100)) == 0)
            #expect(try made(Array((0..<100).reversed())) == 0)
            _ = try client.request(.GET, "/items/1", headers: ["If-None-Match": "\"1\""])
            _ = try client.request(.GET, "/items/1?x=1")
            #expect(calls.value == 102)
        }
    }

    /// Each part of the budget has its own largest body, a sixteenth of it:
    /// an answer too large for a shelf is still shared.
    @Test func sharedAnswersKeepBodiesTooLargeForAShelf() throws {
        try withCountingServer(budget: 16 * 1024, shared: 64 * 1024, size: 2048) { (_, calls, client) throws in
            for _ in 0..<3 {
                #expect(try client.request(.GET, "/big").body.count == 2048)
            }
            #expect(calls.value == 1)
        }
        try withCountingServer(budget: 16 * 1024, shared: 16 * 1024, size: 2048) { (_, calls, client) throws in
            for _ in 0..<3 {
                #expect(try client.request(.GET, "/big").body.count == 2048)
            }
            #expect(calls.value == 3)
        }
    }

    /// Each coding's answer is kept apart, compressed, with its own entity tag.
    @Test func sharedAnswersAreKeptPerCoding() throws {
        try withCountingServer(budget: 0, shared: 64 * 1024, size: 2048) { (_, calls, client) throws in
            for _ in 0..<3 {
                for coding in ["gzip", "br", "identity"] {
                    let response = try client.request(.GET, "/big", headers: ["Accept-Encoding": coding])
                    #expect(response.status == 200)
                    #expect(response.headers["Content-Encoding"] == (coding == "identity" ? nil : coding))
                    #expect((response.body.count < 2048) == (coding != "identity"))
                }
            }
            #expect(calls.value == 3)
        }
    }

    /// Each shared answer counts its body, path and bookkeeping: when the next
    /// does not fit, every answer is dropped and kept again at its next read.
    @Test func fullSharedAnswersAreEmptiedAndFilledAgain() throws {
        let each = "item 10 at 1".utf8.count + "/items/10".utf8.count + 176
        try withCountingServer(budget: 0, shared: each * 10) { (revision, calls, client) throws in
            let made = { (items: [Int]) in try Self.made(reading: items, client, revision, calls) }
            #expect(try made(Array(10..<20) + Array(10..<20)) == 10)
            #expect(try made([20, 20, 10, 10]) == 2)
        }
    }

    @Test func aBudgetOfZeroKeepsNothing() throws {
        try withCountingServer(budget: 0) { (_, calls, client) throws in
            _ = try client.request(.GET, "/items/1")
            _ = try client.request(.GET, "/items/1")
            #expect(calls.value == 2)
        }
    }

    /// A kept answer goes to a request with a credential (`Authorization`, or
    /// a `Cookie`, which may carry one) only when the answer admits it, and by
    /// default to none; `admits` sees both fields.
    @Test func anAnswerGoesToARequestWithACredentialOnlyWhenItAdmitsIt() throws {
        let revision = Revision(1)
        let calls = Shared(0)
        let seen = Shared<[RequestCredentials]>([])
        var router = Router()
        router.add(.GET, "/admitting") { _ in
            calls.update { $0 += 1 }
            var response = HTTPResponse.text("admitting").reusable(while: revision, at: revision.current)
            response.reuse?.admits = { credentials in
                seen.update { $0.append(credentials) }
                return credentials.authorization == "Bearer good" || credentials.cookie == "share=yes"
            }
            return response
        }
        router.add(.GET, "/default") { _ in
            calls.update { $0 += 1 }
            return HTTPResponse.text("default").reusable(while: revision, at: revision.current)
        }
        try withLiveServer(router, configuration: HTTPServer.Configuration(port: 0, threads: 1)) {
            (_: HTTPServer, client: TestClient) throws in
            func get(_ path: String, _ headers: HTTPHeaders = HTTPHeaders()) throws -> Int {
                #expect(try client.request(.GET, path, headers: headers).status == 200)
                return calls.value
            }
            #expect(try get("/admitting", ["Authorization": "Bearer good"]) == 1)
            #expect(try get("/admitting", ["Authorization": "Bearer good"]) == 1)
            #expect(try get("/admitting", ["Cookie": "share=yes"]) == 1)
            #expect(try get("/admitting", ["Authorization": "Bearer bad"]) == 2)
            #expect(try get("/admitting") == 3)
            #expect(
                seen.value.prefix(3) == [
                    RequestCredentials(authorization: "Bearer good"), RequestCredentials(cookie: "share=yes"),
                    RequestCredentials(authorization: "Bearer bad"),
                ])

            #expect(try get("/default") == 4)
            #expect(try get("/default") == 4)
            #expect(try get("/default", ["Cookie": "share=yes"]) == 5)
            #expect(try get("/default", ["Authorization": "Bearer good"]) == 6)
        }
    }

    @Test func answersNotDeclaredReusableAreNeverKept() throws {
        let calls = Shared(0)
        var router = Router()
        router.add(.GET, "/plain") { _ in
            calls.update { $0 += 1 }
            return .text("plain")
        }
        try withLiveServer(router) { _, client in
            _ = try client.request(.GET, "/plain")
            _ = try client.request(.GET, "/plain")
            #expect(calls.value == 2)
        }
    }
}
