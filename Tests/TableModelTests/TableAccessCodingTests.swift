import JSON
import TableModel
import Testing

/// A table's `access` (docs/FORMAT.md, "Table"): read from a Table document,
/// written only for the durable logs (and admins), carried from one table to
/// the next by a snapshot's batches, and never accepted in a batch sent.
@Suite struct TableAccessCodingTests {
    static let access = #"{"anonymous":"none","rules":[{"sub":"ana","right":"admin"}]}"#

    func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(Array(text.utf8)) }

    @Test func accessIsReadWrittenForTheLogsOnlyAndReadBack() throws {
        let table = try ModelDecoder.table(from: parse(#"{"id":"t","access":\#(Self.access)}"#))
        let expected = try parse(Self.access)
        #expect(table.access.map(JSONValue.object) == expected)
        guard case .object(let shown) = try parse(String(decoding: table.jsonBytes, as: UTF8.self)) else {
            Issue.record("not an object")
            return
        }
        #expect(shown["access"] == nil)
        let recorded = try RecordedDecoding.table(from: parse(String(decoding: table.recordedJSONBytes, as: UTF8.self)))
        #expect(recorded.access == table.access)
        let pieces = table.jsonPieces(rowsPerPiece: 1).flatMap { $0 }
        #expect(pieces == table.jsonBytes)
        #expect(table.jsonPieces(rowsPerPiece: 1, withAccess: true).flatMap { $0 } == table.recordedJSONBytes)
        #expect(throws: ValidationError.self) { try ModelDecoder.table(from: parse(#"{"id":"t","access":[]}"#)) }
        #expect(try ModelDecoder.table(from: parse(#"{"id":"t","access":null}"#)).access == nil)
    }

    @Test func aSnapshotCarriesAccessInItsLoggedBatchOnly() throws {
        let before = Table(id: "t", sections: [Section(id: "s", rows: [Row(id: "r", text: "R")])])
        var after = before
        after.access = try ModelDecoder.table(from: parse(#"{"id":"t","access":\#(Self.access)}"#)).access
        let batches = SnapshotDiff.batches(from: before, to: after)
        #expect(batches.count == 1)
        let batch = try #require(batches.first)
        // Published: a batch that changes nothing shown. Logged: with access, and it applies.
        #expect(String(decoding: batch.changeJSONBytes(version: 1), as: UTF8.self).contains("access") == false)
        let logged = batch.changeJSONBytes(version: 1, withAccess: true)
        let change = try RecordedDecoding.change(from: RecordedDecoding.parser.parse(logged[...]))
        var replayed = before
        _ = try replayed.apply(change.batch)
        #expect(replayed.access == after.access)
        // Nobody sends it in a batch.
        let sent = #"{"properties":{"access":\#(Self.access)}}"#
        #expect(throws: ValidationError.self) { try ModelDecoder.batch(from: parse(sent)) }
        #expect(throws: ValidationError.self) { try ModelDecoder.properties(from: parse(#"{"access":null}"#)) }
    }
}
