import Testing
@testable import TableModel

/// `Table.prepare` validates without changing the table, so a durable log can
/// record a change before it is made (docs/ARCHITECTURE.md, "Durable logs").
@Suite("Prepared batches: validate, record, then apply")
struct PreparedBatchTests {
    typealias F = BatchFixture

    static let batch = Batch(
        deleteRows: [TableIndexPath(0, 1)],
        insertRows: [.init(at: TableIndexPath(1, 0), row: F.row("N"))],
        moveRows: [.init(from: TableIndexPath(0, 0), to: TableIndexPath(1, 1))],
        properties: TableProperties(title: "Prepared"))

    @Test func preparingChangesNothingAndAnswersTheNormalisedBatch() throws {
        let table = F.table([3, 2])
        let prepared = try table.prepare(Self.batch)
        var applied = table
        let normalised = try applied.apply(Self.batch)
        #expect(prepared.batch == normalised)
        #expect(prepared.version == table.version)
        #expect(F.texts(table) == [["A0", "A1", "A2"], ["B0", "B1"]])
    }

    @Test func applyingThePreparedBatchEqualsApplyingTheBatch() throws {
        let table = F.table([3, 2])
        var viaPrepared = table
        viaPrepared.apply(try table.prepare(Self.batch))
        var direct = table
        _ = try direct.apply(Self.batch)
        #expect(viaPrepared == direct)
        #expect(viaPrepared.version == table.version + 1)
        #expect(viaPrepared.title == "Prepared")
    }

    @Test func aRefusedBatchIsRefusedWhenPrepared() {
        let table = F.table([2])
        #expect(throws: BatchError.self) { try table.prepare(Batch(deleteRows: [TableIndexPath(0, 5)])) }
    }

    @Test func anEmptyPreparedBatchChangesNothing() throws {
        let table = F.table([2])
        var result = table
        result.apply(try table.prepare(Batch(animation: .fade)))
        #expect(result == table)
    }
}
