import JSON
import MicroHTTP
import Testing
@testable import TableModel
@testable import TableServer

/// `ViewCache`: a view read again at the same version is the one kept; a new
/// version of the table derives it again; the bound on rows holds.
@Suite struct ViewCacheTests {
    @Test func aViewIsKeptForItsVersionOnly() throws {
        let cache = ViewCache()
        let query = try TableQuery(parameters: ["q": "san"])
        var table = citiesTable()
        let first = cache.view(query, of: table)
        #expect(first.rowCount == 2)
        // The same version answers the kept view, even for a table that (wrongly) changed under it.
        var tampered = table
        _ = try tampered.apply(Batch(deleteRows: [TableIndexPath(0, 1)]))
        tampered.version = table.version
        #expect(cache.view(query, of: tampered) == first)
        // A new version derives it again.
        _ = try table.apply(Batch(deleteRows: [TableIndexPath(0, 1)]))
        #expect(cache.view(query, of: table).rowCount == 1)
    }

    @Test func aViewLargerThanTheBoundIsNotKept() throws {
        let cache = ViewCache(rowCapacity: 10)
        let rows = (0..<11).map { Row(text: "r\($0)") }
        let table = Table(id: "big", sections: [Section(rows: rows)])
        let query = TableQuery(sort: [ViewSortKey(key: .text, descending: true)])
        var tampered = Table(id: "big", sections: [Section(rows: [Row(text: "only")])])
        tampered.version = table.version
        #expect(cache.view(query, of: table).rowCount == rows.count)
        #expect(cache.view(query, of: tampered).rowCount == 1)
    }
}

/// `OpenViews`: views shared by their streams, dropped with the last.
@Suite struct OpenViewsTests {
    @Test func aViewIsSharedAndDroppedWithItsLastStream() throws {
        var views = OpenViews()
        let table = citiesTable()
        let query = try TableQuery(parameters: ["q": "san"])
        let first = EventStream.reserved()
        let second = EventStream.reserved()
        defer { [first, second].forEach { $0.close() } }
        _ = views.subscribe(first, to: query, of: table, since: nil)
        _ = views.subscribe(second, to: try TableQuery(parameters: ["q": " san "]), of: table, since: nil)
        #expect(views.unsubscribe(ObjectIdentifier(first)).isEmpty)
        #expect(views.count == 1)
        // The view its last stream left is answered, for its keeper to free.
        let dropped = views.unsubscribe(ObjectIdentifier(second))
        #expect(dropped.map(\.live.query.canonicalQuery) == [query.canonicalQuery])
        #expect(views.isEmpty)
    }
}
