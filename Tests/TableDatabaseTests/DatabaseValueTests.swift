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

    @Test func aNoticeCarriesItsChangesWhenTheyFit() {
        let changes: [[UInt8]] = [Array(#"{"version":4,"batch":{}}"#.utf8), Array(#"{"version":5,"t":"a:b"}"#.utf8)]
        let notice = TableNotice(id: "t:x", version: 5, incarnation: 12, changes: changes)
        #expect(notice.carried?.incarnation == 12 && notice.carried?.changes == changes)
        #expect(notice.payload == "t:x:5\n12\n" + #"{"version":4,"batch":{}}"# + "\n" + #"{"version":5,"t":"a:b"}"#)
        #expect(TableNotice(payload: notice.payload) == notice)
        #expect(TableNotice(payload: "t:5\n12") == nil)
        #expect(TableNotice(payload: "t:5\nx\n{}") == nil)
    }

    /// `--ablate notice-changes` (`DatabaseOptions.noticesCarryChanges`): the
    /// notice only names the version, and replicas read the changes by query.
    @Test func aNoticeToldNotToCarryChangesCarriesNone() {
        let changes: [[UInt8]] = [Array(#"{"version":4,"batch":{}}"#.utf8)]
        let notice = TableNotice(id: "t", version: 4, incarnation: 12, changes: changes, carryingChanges: false)
        #expect(notice.carried == nil && notice.payload == "t:4")
    }

    @Test func aNoticeWhoseChangesWouldPassTheLimitCarriesNone() {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: TableNotice.payloadLimit)
        let notice = TableNotice(id: "t", version: 9, incarnation: 1, changes: [big])
        #expect(notice.carried == nil && notice.payload == "t:9")
        let broken = TableNotice(id: "t", version: 9, incarnation: 1, changes: [Array("{\n}".utf8)])
        #expect(broken.carried == nil)
        let fits = [UInt8](repeating: UInt8(ascii: "a"), count: TableNotice.payloadLimit - 20)
        #expect(TableNotice(id: "t", version: 9, incarnation: 1, changes: [fits]).payload.utf8.count <= 7_000)
        #expect(TableNotice.payloadLimit < 8_000)
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
