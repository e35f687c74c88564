import JSON

/// The events of a table's feed, as Server-Sent-Events text (one `event:`, optional `id:`, one `data:` line).
///
/// `data` is always one line of JSON: our JSON writer escapes every line break.
enum FeedEvent {
    /// `id`: the event's version as a cursor of the server's life (`ServerLife.cursor`).
    static func event(_ name: String, id: String? = nil, data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + 40)
        bytes.append(contentsOf: "event: ".utf8)
        bytes.append(contentsOf: name.utf8)
        if let id {
            bytes.append(contentsOf: "\nid: ".utf8)
            bytes.append(contentsOf: id.utf8)
        }
        bytes.append(contentsOf: "\ndata: ".utf8)
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: "\n\n".utf8)
        return bytes
    }

    /// Sent instead of missed changes that are no longer kept: the client reloads.
    static func reset(version: Int) -> [UInt8] {
        event("reset", data: Array("{\"version\":\(version)}".utf8))
    }

    /// Sent when the bearer token a stream was opened with expires, just
    /// before the stream ends (docs/ACCESS.md): a reconnect with that token is
    /// refused, 401.
    static let expired = event(
        "expired",
        data: Array(
            #"{"reason":"token-expired","detail":"the bearer token this stream was opened with has expired; open it again with a valid one"}"#
                .utf8))

    /// Sent when the table is deleted, just before the stream ends.
    static func deleted(tableID: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { object in
            object.member("table") { $0.string(tableID) }
        }
        return event("deleted", data: writer.bytes)
    }
}
