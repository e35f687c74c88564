import MicroHTTPTesting

/// Event streams read over a real socket (docs/API.md, "Event stream"): a
/// subscription's raw connection, and what it sends up to a marker.
public struct EventStreams: Sendable {
    /// What every stream sends first: a comment and the retry delay.
    public let opening = ": connected\nretry: 3000\n\n"

    public init() {}

    /// Opens `path`'s stream with `headers` (each line ending in CRLF); throws
    /// unless it is answered 200 as an event stream.
    public func subscribe(_ client: TestClient, _ path: String, headers: String = "") throws -> RawConnection {
        let connection = try client.connect()
        try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n")
        let head = try connection.readHead()
        guard head.status == 200, head.headers["Content-Type"] == "text/event-stream; charset=utf-8" else {
            connection.close()
            throw NotAStream(status: head.status, contentType: head.headers["Content-Type"])
        }
        return connection
    }

    /// What the stream sends next, up to and including `marker`'s first appearance.
    public func read(_ connection: RawConnection, until marker: String) -> String {
        String(
            decoding: connection.readStream(timeout: .seconds(10)) {
                String(decoding: $0, as: UTF8.self).contains(marker)
            }, as: UTF8.self)
    }

    /// A subscription answered otherwise than as an event stream.
    public struct NotAStream: Error {
        public let status: Int
        public let contentType: String?
    }
}
