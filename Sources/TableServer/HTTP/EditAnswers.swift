import MicroHTTP

extension Respond {
    /// An edit's answer: its change, `{version, batch}`.
    static func change(_ json: [UInt8], version: Int) -> HTTPResponse {
        var body = json
        body.append(UInt8(ascii: "\n"))
        return Self.json(body, version: version)
    }

    /// A snapshot `PUT`'s answer: the version it reached and its changes, each `{version, batch}`.
    static func snapshot(version: Int, changes: [[UInt8]]) -> HTTPResponse {
        json(version: version) { writer in
            writer.beginObject()
            writer.key("version"); writer.integer(version)
            writer.key("changes")
            writer.beginArray()
            for change in changes { writer.rawValue(change) }
            writer.endArray()
            writer.endObject()
        }
    }
}

extension IdempotencyKeys.Answer {
    /// The answer again, as the edit that made it was answered; `{"version"}`
    /// alone once the answer was dropped for the byte budget (docs/API.md,
    /// "Idempotency-Key").
    var response: HTTPResponse {
        guard isKept else {
            return Respond.json(version: version) { writer in
                writer.beginObject()
                writer.key("version"); writer.integer(version)
                writer.endObject()
            }
        }
        return isSnapshot
            ? Respond.snapshot(version: version, changes: changes)
            : Respond.change(changes.last ?? [], version: version)
    }
}

extension HTTPRequest {
    /// The request's `Idempotency-Key`, when it sends one (400 when malformed).
    func idempotencyKey() throws -> IdempotentRequest? {
        try IdempotentRequest(self)
    }
}
