import MicroHTTP
import MicroHTTPTesting
import TableAccess
import TableServer
import Testing

/// An event stream opened with a bearer token ends when the token expires,
/// with an `expired` event, and a reconnect with it is refused
/// (docs/ACCESS.md, "Streams and expiry").
@Suite(.timeLimit(.minutes(1))) struct StreamExpiryTests {
    @Test func aStreamEndsWhenItsTokenExpiresAndItsTokenIsRefusedAfter() async throws {
        let keys = await AccessKeys()
        let verifier = try await keys.verifier()
        let server = try makeServer(policy: testPolicy, verifier: verifier)
        let port = try server.start()
        defer { server.shutdown() }
        let client = TestClient(port: port)
        let token = try await keys.verifiedToken(by: verifier, sub: "reader", expiresIn: 2)
        let events = EventStreamAPITests()
        let stream = try events.subscribe(
            client, "/api/tables/t/events", headers: "Authorization: Bearer \(token)\r\n")
        defer { stream.close() }
        let text = events.read(stream, until: "event: expired\n")
        #expect(text.hasPrefix(events.opening))
        #expect(text.contains(#"event: expired\#ndata: {"reason":"token-expired","#))
        // The stream has ended: its body's last chunk follows, nothing else.
        #expect(stream.readStream { _ in false }.isEmpty)
        #expect(stream.sawLastChunk)

        let again = try client.request(
            .GET, "/api/tables/t/events", headers: ["Authorization": "Bearer \(token)", "Host": "127.0.0.1"])
        #expect(again.status == 401)
        #expect(try again.json["type"]?.string == "invalid-token")
        // Refused from what the server knows of the token, without a signature check.
        #expect(try again.json["detail"]?.string == "the token has expired")
    }

    @Test func aStreamOpenedWithAShareLinksCookieEndsWhenTheLinkExpires() async throws {
        let keys = await AccessKeys()
        let server = try makeServer(
            policy: testPolicy, verifier: try await keys.verifier(), shareLinks: ShareFixture.links)
        let port = try server.start()
        defer { server.shutdown() }
        let key = ShareFixture.links.key(for: ShareGrant(table: "t", right: .read, expiresAt: ShareFixture.now + 2))
        let events = EventStreamAPITests()
        let stream = try events.subscribe(
            TestClient(port: port), "/api/tables/t/events", headers: "Cookie: webtableview-share=\(key)\r\n")
        defer { stream.close() }
        let text = events.read(stream, until: "event: expired\n")
        #expect(text.hasPrefix(events.opening))
        #expect(text.contains(#"event: expired\#ndata: {"reason":"token-expired","#))
    }
}
