import Testing

@testable import TableDatabase

@Suite struct DatabaseStatementTests {
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

    @Test func changeInsertsNumberTheirParametersAndSplitLargeEdits() {
        #expect(ChangeInsert.statements(count: 0).isEmpty)
        let one = ChangeInsert.statements(count: 2)
        #expect(one.count == 1)
        #expect(one[0].rows == 2)
        #expect(
            one[0].sql
                == "INSERT INTO webtableview_changes (incarnation, version, change, commit_id) VALUES ($1, $3, $4, $2), ($1, $5, $6, $2)"
        )
        let split = ChangeInsert.statements(count: 2_500)
        #expect(split.map(\.rows) == [1_000, 1_000, 500])
        // 2 + 2 × 1,000 parameters: far under PostgreSQL's 65,535.
        #expect(split[0].sql.hasSuffix("($1, $2001, $2002, $2)"))
    }

    @Test func compareAndAppendNumbersEachChangeAfterTheSevenFixedParameters() {
        let sql = ChangeInsert.compareAndAppend(count: 2)
        #expect(sql.contains("WHERE id = $1 AND incarnation = $2 AND version = $3 RETURNING id"))
        #expect(
            sql.contains(
                "VALUES ($2::bigint, $8::bigint, $9::text, $7::bigint), ($2::bigint, $10::bigint, $11::text, $7::bigint)"
            ))
        #expect(sql.contains("WHERE EXISTS (SELECT 1 FROM moved)"))
        #expect(sql.hasSuffix("SELECT pg_notify($5, $6) FROM moved"))
    }

    @Test func migrationsAreNumberedFromOne() {
        #expect(DatabaseSchema.version == DatabaseSchema.migrations.count)
        #expect(DatabaseSchema.migrations.allSatisfy { !$0.isEmpty })
        #expect(DatabaseSchema.migrations[0].contains { $0.contains("webtableview_tables") })
    }
}
