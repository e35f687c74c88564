/// One event of a `text/event-stream` (the WHATWG HTML standard, "Server-sent events").
public struct ServerSentEvent: Sendable, Equatable {
    /// `event:`; `message` when the event names none.
    public var name: String
    /// `id:`, when the event has one.
    public var id: String?
    /// The `data:` lines, joined by line feeds.
    public var data: String

    public init(name: String, id: String?, data: String) {
        self.name = name
        self.id = id
        self.data = data
    }
}

/// Cuts a stream's bytes into events as they arrive. An event is complete at
/// its blank line: what comes before the cut of a connection is never handed
/// on, so a new connection starts with a new parser.
struct ServerSentEventParser {
    private var line: [UInt8] = []
    private var lastWasCarriageReturn = false
    private var name: String?
    private var id: String?
    private var data: [String] = []
    /// `retry:`, the reconnection delay in milliseconds the server asked for.
    private(set) var retry: Int?

    /// The events that `bytes` completes, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n"), lastWasCarriageReturn {
                lastWasCarriageReturn = false
                continue
            }
            lastWasCarriageReturn = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if let event = endLine() { events.append(event) }
            } else {
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        guard line[0] != UInt8(ascii: ":") else { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = String(decoding: line[..<colon], as: UTF8.self)
        var valueStart = colon < line.endIndex ? colon + 1 : colon
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = String(decoding: line[valueStart...], as: UTF8.self)
        switch field {
        case "event": name = value
        case "data": data.append(value)
        case "id": id = value
        case "retry": retry = Int(value) ?? retry
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            name = nil
            id = nil
            data = []
        }
        guard !data.isEmpty else { return nil }
        return ServerSentEvent(name: name ?? "message", id: id, data: data.joined(separator: "\n"))
    }
}
