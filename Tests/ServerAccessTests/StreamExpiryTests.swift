import AccessTokens
import MicroHTTP
import MicroHTTPTesting
import TableAccess
import TableServer
import TableServerTesting
import Testing

/// An event stream opened with a bearer token ends when the token expires,
/// with an `expired` event, and a reconnect with it is refused
/// (docs/ACCESS.md, "Streams and expiry").
@Suite(.timeLimit(.minutes(1))) struct StreamExpiryTests {
    /// Follows the table's events with the credential header `credential`
    /// until the stream says it expired; checks the stream opened as any
    /// does and ended with an `expired` event of reason `token-expired`.
    func expectExpiry(_ client: TestClient, credential: String) throws {
        let events = EventStreams()
        let stream = try events.subscribe(client, "/api/tables/t/events", headers: "\(credential)\r\n")
        defer { stream.close() }
        let text = events.read(stream, until: "event: expired\n")
        #expect(text.hasPrefix(events.opening))
        #expect(text.contains(#"event: expired\#ndata: {"reason":"token-expired","#))
        // The stream has ended: its body's last chunk follows, nothing else.
        #expect(stream.readStream { _ in false }.isEmpty)
        #expect(stream.sawLastChunk)
    }

    @Test func aStreamEndsWhenItsTokenExpiresAndItsTokenIsRefusedAfter() async throws {
        try await withPolicyServer { keys, verifier, client in
            let token = try await keys.verifiedToken(by: verifier, sub: "reader", expiresIn: 2)
            try expectExpiry(client, credential: "Authorization: Bearer \(token)")
            let again = try client.request(
                .GET, "/api/tables/t/events", headers: ["Authorization": "Bearer \(token)", "Host": "127.0.0.1"])
            #expect(again.status == 401)
            #expect(try again.json["type"]?.string == "invalid-token")
            // Refused from what the server knows of the token, without a signature check.
            #expect(try again.json["detail"]?.string == "the token has expired")
        }
    }

    @Test func aStreamOpenedWithAShareLinksCookieEndsWhenTheLinkExpires() async throws {
        try await withPolicyServer(shareLinks: ShareFixture.links) { _, _, client in
            let key = ShareFixture.links.key(for: ShareGrant(table: "t", right: .read, expiresAt: ShareFixture.now + 2))
            try expectExpiry(client, credential: "Cookie: webtableview-share=\(key)")
        }
    }
}
