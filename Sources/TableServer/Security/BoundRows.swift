import MicroHTTP
import TableAccess
import TableModel

/// The view a requester's reads of the table its request names are bound to
/// (a policy rule's `rows`, docs/ACCESS.md, "Rows per reader"): what that
/// requester reads, exports and follows is this view, in its index paths.
enum BoundRows {
    /// The view the current handler's requester is bound to, bound by the
    /// access check around it (`withValue`); nil for the whole table.
    @TaskLocal static var current: TableQuery?
}

extension TableQuery {
    /// The view `requested` asks for, of the view `self` (a requester's bound
    /// rows): rows both select, the words and filters of both, and the
    /// requested order and sections, else `self`'s.
    func narrowed(by requested: TableQuery?) -> TableQuery {
        guard let requested else { return self }
        var view = self
        view.words += requested.words.filter { !words.contains($0) }
        view.filters += requested.filters.filter { !filters.contains($0) }
        if !requested.sort.isEmpty || requested.group != nil {
            view.sort = requested.sort
            view.group = requested.group
        }
        return view
    }
}

extension HTTPRequest {
    /// The view this request reads: its view parameters' (`tableQuery()`),
    /// within the rows its requester is bound to; nil for the table itself.
    func readQuery() throws -> TableQuery? {
        let requested = try tableQuery()
        return BoundRows.current.map { $0.narrowed(by: requested) } ?? requested
    }
}

extension BoundRows {
    /// `body`, to run later or on another thread (the heavy-work queue, a
    /// `Min-Version` wait) with the requester and bound rows of now: task
    /// locals do not cross threads by themselves.
    static func carried<Result>(_ body: @escaping @Sendable () -> Result) -> @Sendable () -> Result {
        let requester = Requester.current
        let rows = current
        return { Requester.$current.withValue(requester) { $current.withValue(rows) { body() } } }
    }
}
