import Foundation
import MicroHTTP
import Synchronization
import TableServerTesting
import Testing
@testable import TableModel
@testable import TableRendering
@testable import TableServer

/// `ViewKeeper` and `OpenViews.update(through:)`: views kept off the table's
/// lock, bounded in number, shared by their streams, a run of changes they
/// cannot follow incrementally followed once, and let go with their streams.
@Suite struct ViewKeeperTests {
    let events: ChangeEvents

    init() throws {
        let renderer = try TableRenderer(templatesDirectory: packageRoot.appendingPathComponent("Templates").path)
        events = ChangeEvents(renderer: renderer, life: .lasting)
    }

    /// The cities table after a rename (a reload), a section inserted and a row deleted, each a version.
    func changes(of table: Table) throws -> [OpenViews.TableChange] {
        var table = table
        var row = table.sections[0].rows[0]
        row.text = "Zanzibar"
        let made = [
            Batch(reloadRows: [Batch.RowItem(at: TableIndexPath(0, 0), row: row)]),
            Batch(insertSections: [
                Batch.SectionItem(at: 0, section: Section(rows: [Row(id: "sj", text: "San Jose", detail: "CA")]))
            ]),
            Batch(deleteRows: [TableIndexPath(1, 1)]),
        ]
        return try made.map { batch in
            let applied = try table.apply(batch)
            return OpenViews.TableChange(table: table, batches: [applied], events: events)
        }
    }

    @Test(arguments: ["q=san", "sort=text", "group=detail&sort=-text"])
    func aRunOfChangesFollowedOnceEndsAsTheChangesOneByOne(_ spelling: String) throws {
        let table = citiesTable()
        let query = try TableQuery(parameters: parameters(spelling))
        let changes = try changes(of: table)
        let stream = EventStream.reserved()
        defer { stream.close() }
        var together = OpenViews()
        var apart = OpenViews()
        _ = together.subscribe(stream, to: query, of: table, since: nil)
        _ = apart.subscribe(stream, to: query, of: table, since: nil)

        let once = together.update(through: changes)
        let oneByOne = changes.flatMap { apart.update(through: [$0]) }
        let key = query.canonicalQuery
        let final = query.view(of: changes.last!.table)
        #expect(together.views[key]?.live.view == final)
        #expect(apart.views[key]?.live.view == final)
        // One update for the run, applying to the view as it was before it.
        #expect(once.count == 1)
        let text = String(decoding: try #require(once.first?.event), as: UTF8.self)
        #expect(text.contains(#""version":3,"since":0"#))
        #expect(oneByOne.count >= 2)
    }

    @Test func aRunOfRowEditsIsFollowedOneByOne() throws {
        var table = citiesTable()
        let query = try TableQuery(parameters: ["sort": "text"])
        let stream = EventStream.reserved()
        defer { stream.close() }
        var views = OpenViews()
        _ = views.subscribe(stream, to: query, of: table, since: nil)
        var changes: [OpenViews.TableChange] = []
        for name in ["Aa", "Bb"] {
            var row = table.sections[0].rows[0]
            row.text = name
            let applied = try table.apply(Batch(reloadRows: [Batch.RowItem(at: TableIndexPath(0, 0), row: row)]))
            changes.append(OpenViews.TableChange(table: table, batches: [applied], events: events))
        }
        let sent = views.update(through: changes)
        #expect(sent.count == 2)
        #expect(views.views[query.canonicalQuery]?.live.view == query.view(of: table))
    }

    @Test func streamsSharingAViewGetWhatAViewOfTheirOwnGets() throws {
        let table = citiesTable()
        let query = try TableQuery(parameters: ["group": "detail"])
        let deliveries = [EventDelivery(), EventDelivery()]
        let shared = ViewKeeper(delivery: deliveries[0])
        let alone = ViewKeeper(delivery: deliveries[1])
        let streams = (0..<3).map { _ in EventStream(bufferLimit: 1 << 20) }
        defer { streams.forEach { $0.close() } }
        try shared.subscribe(streams[0], to: query, of: table, since: nil, life: .lasting)
        try shared.subscribe(streams[1], to: query, of: table, since: nil, life: .lasting)
        try alone.subscribe(streams[2], to: query, of: table, since: nil, life: .lasting)
        #expect(shared.count == 1)
        // Each change is followed before the next is queued: how a keeper
        // coalesces a run depends on when its queue drains, which is not what
        // this test compares (aRunOfChangesFollowedOnce… covers coalescing).
        for change in try changes(of: table) {
            for keeper in [shared, alone] {
                keeper.follow(change.table, by: change.batches, events: change.events)
                keeper.flush()
            }
        }
        let received = try [(shared, 0), (shared, 0), (alone, 1)].enumerated().map { offset, pair in
            pair.0.flush()
            deliveries[pair.1].flush()
            let bytes = streams[offset].takeQueuedBytes()
            #expect(!bytes.isEmpty)
            return try #require(String(bytes: bytes, encoding: .utf8))
        }
        #expect(received[0] == received[1])
        #expect(received[0] == received[2])
    }

    @Test func oneViewTooManyIsRefused() throws {
        let keeper = ViewKeeper(delivery: EventDelivery())
        let table = citiesTable()
        let streams = (0...ViewKeeper.limit).map { _ in EventStream.reserved() }
        defer { streams.forEach { $0.close() } }
        for (n, stream) in streams.dropLast().enumerated() {
            try keeper.subscribe(stream, to: TableQuery(words: ["w\(n)"]), of: table, since: nil, life: .lasting)
        }
        #expect(throws: TableServerError.self) {
            try keeper.subscribe(
                streams.last!, to: TableQuery(words: ["one more"]), of: table, since: nil, life: .lasting)
        }
        // A view already open takes more streams.
        try keeper.subscribe(streams.last!, to: TableQuery(words: ["w0"]), of: table, since: nil, life: .lasting)
        let ended = Mutex(0)
        keeper.end { streams in ended.withLock { $0 = streams.count } }
        keeper.flush()
        #expect(ended.withLock { $0 } == ViewKeeper.limit + 1)
        #expect(keeper.count == 0)
        #expect(keeper.heldCount == 0)
    }

    @Test func viewsAreLetGoWithTheirLastStream() throws {
        let keeper = ViewKeeper(delivery: EventDelivery())
        let table = citiesTable()
        let streams = (0..<3).map { _ in EventStream.reserved() }
        defer { streams.forEach { $0.close() } }
        try keeper.subscribe(streams[0], to: TableQuery(words: ["san"]), of: table, since: nil, life: .lasting)
        try keeper.subscribe(streams[1], to: TableQuery(words: ["san"]), of: table, since: nil, life: .lasting)
        try keeper.subscribe(
            streams[2], to: TableQuery(sort: [ViewSortKey(key: .text)]), of: table, since: nil, life: .lasting)
        keeper.flush()
        #expect((keeper.count, keeper.heldCount) == (2, 2))
        keeper.unsubscribe(ObjectIdentifier(streams[0]))
        keeper.unsubscribe(ObjectIdentifier(streams[2]))
        keeper.flush()
        #expect((keeper.count, keeper.heldCount) == (1, 1))
        keeper.unsubscribe(ObjectIdentifier(streams[1]))
        // A stream it never had changes nothing.
        keeper.unsubscribe(ObjectIdentifier(streams[1]))
        keeper.flush()
        #expect((keeper.count, keeper.heldCount) == (0, 0))
        #expect(keeper.isEmpty)
    }

    private func parameters(_ spelling: String) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: spelling.split(separator: "&").map {
                let pair = $0.split(separator: "=", maxSplits: 1)
                return (String(pair[0]), String(pair[1]))
            })
    }
}
