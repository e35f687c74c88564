@testable import MicroHTTP
import Testing

/// The `Host` check every request passes: its byte-level match of the usual
/// values must judge exactly as ``OriginPolicy/hostName(of:)`` does.
@Suite struct OriginPolicyTests {
    private let policy = OriginPolicy(allowedHosts: OriginPolicy.loopbackNames.union(["tables.example"]))

    private func allows(_ host: String?) -> Bool {
        guard let host else { return policy.allows(host: nil) }
        return host.withCString { policy.allows(host: $0) }
    }

    @Test(arguments: [
        "localhost", "localhost:8080", "127.0.0.1:1", "127.0.0.1:65535", "[::1]", "[::1]:443", "tables.example:80",
        "LOCALHOST:8080", "Tables.Example", "localhost:+80", "localhost:065535",
        "127.0.0.1:65536", "localhost:", "localhost:8o80", "localhost:123456", "[::1]x", "[::1", ":80", "",
        "rebind.attacker.example", "localhost.attacker.example", "127.0.0.1.nip.io:8080", "localhostx",
    ])
    func theBytesJudgeAsTheParsedNameDoes(host: String) {
        let parsed = OriginPolicy.hostName(of: host).map { policy.allowedHosts!.contains($0) } ?? false
        #expect(allows(host) == parsed)
    }

    @Test func noHostAndNoListAreServed() {
        #expect(allows(nil))
        #expect("anything".withCString { OriginPolicy().allows(host: $0) })
    }
}
