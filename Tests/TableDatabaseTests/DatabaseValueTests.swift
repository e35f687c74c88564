import Testing

@testable import TableDatabase

@Suite struct DatabaseValueTests {
    @Test func noticePayloadRoundTrips() {
        let notice = TableNotice(id: "us-cities_2", version: 42)
        #expect(notice.payload == "us-cities_2:42")
        #expect(TableNotice(payload: notice.payload) == notice)
        #expect(TableNotice(payload: "t:-1") == TableNotice(id: "t", version: -1))
        #expect(TableNotice(payload: "no-version") == nil)
        #expect(TableNotice(payload: "t:x") == nil)
    }

    @Test func noticePayloadStaysFarUnderPostgreSQLsLimit() {
        // Ids are at most 64 characters (docs/API.md); the longest payload is tiny.
        let payload = TableNotice(id: String(repeating: "a", count: 64), version: .max).payload
        #expect(payload.utf8.count < 100)
    }

    @Test func migrationsAreNumberedFromOne() {
        #expect(DatabaseSchema.version == DatabaseSchema.migrations.count)
        #expect(DatabaseSchema.migrations.allSatisfy { !$0.isEmpty })
        #expect(DatabaseSchema.migrations[0].contains { $0.contains("webtableview_tables") })
    }
}
