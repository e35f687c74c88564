/// One Server-Sent Event in its wire format.
public struct ServerSentEvent: Sendable {
    public var event: String?
    public var id: String?
    public var data: String

    public init(event: String? = nil, id: String? = nil, data: String) {
        self.event = event
        self.id = id
        self.data = data
    }

    /// `event:`, `id:` and one `data:` line per line of `data`, then a blank line.
    public var bytes: [UInt8] {
        var text = ""
        if let event {
            text += "event: \(event)\n"
        }
        if let id {
            text += "id: \(id)\n"
        }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        text += "\n"
        return Array(text.utf8)
    }

    /// What a stream sends first, at once: a comment saying it is connected and
    /// the reconnection delay (`retry`, in milliseconds), so that a client sees
    /// the stream is open before the first event, however long that takes.
    public static func opening(retryMilliseconds: Int = 3_000) -> [UInt8] {
        Array(": connected\nretry: \(retryMilliseconds)\n\n".utf8)
    }

    /// A comment line, ignored by clients; keeps idle connections alive.
    public static func comment(_ text: String) -> [UInt8] {
        Array(": \(text)\n\n".utf8)
    }
}
