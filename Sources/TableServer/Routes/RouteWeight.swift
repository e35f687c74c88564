import MicroHTTP
import TableModel

/// How much work a route's requests may take: whether one runs on the
/// heavy-work queue (`HeavyWork`; docs/RELIABILITY.md, "Heavy work") or on
/// the worker thread that read it.
enum RouteWeight: Sendable {
    /// Never queued: health, metrics, files, the feed and event streams.
    case light
    /// Queued when the request is heavy: an import (a CSV body, or a JSON
    /// array of records), a body of `largeBody` bytes or more (a large
    /// batch), or a read of a view of a table of `largeTable` rows or more
    /// that is not kept already (`ViewCache`).
    case byRequest
    /// `byRequest`, and a page of a large table whose `defaultView` applies.
    case page
    /// Always queued: a snapshot `PUT`, whose diff reads the whole table.
    case heavy

    /// Bytes of body from which a request is heavy: decoding and checking it
    /// takes milliseconds (a batch of some thousands of rows).
    static let largeBody = 256 << 10
    /// Rows from which deriving a view of a table is heavy.
    static let largeTable = 10_000

    /// Whether `request` runs on the heavy-work queue.
    func isHeavy(_ request: HTTPRequest, store: TableStore) -> Bool {
        switch self {
        case .light: return false
        case .heavy: return true
        case .byRequest, .page:
            if request.body.count >= Self.largeBody || Self.isImport(request) { return true }
            guard request.method == .GET || request.method == .HEAD else { return false }
            return readsLargeView(request, store: store)
        }
    }

    /// A CSV body, or a JSON body that is an array (records, not a table).
    private static func isImport(_ request: HTTPRequest) -> Bool {
        if request.hasCSVBody { return true }
        let first = request.body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "[")
    }

    /// Whether the read derives a view of a large table, one not kept at the
    /// table's version. A request the read will refuse (no such table, a
    /// malformed view) is light: its refusal costs nothing.
    private func readsLargeView(_ request: HTTPRequest, store: TableStore) -> Bool {
        guard request.parameters["t"] != nil, let handle = try? store.handle(request.tableID) else { return false }
        let table = handle.table
        guard table.rowCount >= Self.largeTable else { return false }
        let appliesDefaultView = request.query["sort"] == nil && request.query["group"] == nil
        if self == .page, table.defaultView != nil, appliesDefaultView { return true }
        // The view read: a requester bound to rows reads a view even without parameters.
        guard let query = try? request.readQuery() else { return false }
        return !handle.views.holds(query, at: table.version)
    }
}
