import JSON
import Testing
@testable import TableModel

/// A press of a row's accessory button (docs/API.md, "Accessory buttons"): a
/// versioned change that edits no row and carries `press`, written and read
/// back by the logs, and refused for rows without a button.
@Suite struct PressTests {
    static let table = Table(
        id: "settings",
        sections: [
            Section(rows: [
                Row(id: "update-now", text: "iOS 26.2", accessoryView: .button(title: "Update Now")),
                Row(text: "No id", accessoryView: .button(title: "Go")),
                Row(id: "wifi", text: "Wi-Fi", accessoryView: .switch(isOn: true, isEnabled: true)),
                Row(id: "plain", text: "Plain"),
            ])
        ])

    @Test func aPressIsANonEmptyBatchThatChangesNoRowButTheVersion() throws {
        let batch = try Self.table.pressBatch(forItem: "update-now")
        #expect(batch.press == Batch.Press(at: TableIndexPath(0, 0), id: "update-now"))
        #expect(!batch.isEmpty)
        #expect(batch.reloadRows.isEmpty && batch.insertRows.isEmpty && batch.deleteRows.isEmpty)

        var table = Self.table
        let applied = try table.apply(batch)
        #expect(table.version == 1)
        #expect(table.sections == Self.table.sections, "a press changes no row")
        #expect(applied.press == batch.press)
        #expect(SnapshotDiff.batches(from: Self.table, to: table).isEmpty)
    }

    @Test func aPressIsWrittenWithItsIndexPathAndIDWhenTheRowHasOne() throws {
        let named = try Self.table.pressBatch(at: TableIndexPath(0, 0))
        #expect(
            String(decoding: named.changeJSONBytes(version: 4), as: UTF8.self)
                == #"{"version":4,"batch":{"press":{"at":[0,0],"id":"update-now"},"animation":"none"}}"#)
        let anonymous = try Self.table.pressBatch(at: TableIndexPath(0, 1))
        #expect(String(decoding: anonymous.jsonBytes, as: UTF8.self) == #"{"press":{"at":[0,1]},"animation":"none"}"#)
    }

    @Test func aRecordedPressReadsBackAndAppliesAgain() throws {
        let batch = try Self.table.pressBatch(forItem: "update-now")
        let recorded = try RecordedDecoding.change(
            from: CodingFixture.parse(String(decoding: batch.changeJSONBytes(version: 1), as: UTF8.self)))
        #expect(recorded.version == 1)
        #expect(recorded.batch == batch)
        var table = Self.table
        #expect(try table.apply(recorded.batch).press == batch.press)
        #expect(table.version == 1)
    }

    @Test func aBatchSentByAClientCannotCarryAPress() throws {
        #expect(throws: ValidationError.self) {
            try ModelDecoder.batch(from: CodingFixture.parse(#"{"press": {"at": [0, 0], "id": "update-now"}}"#))
        }
    }

    @Test(arguments: [
        (#"{"at": [0, 0], "id": "wifi"}"#, "an id that is not the row's"),
        (#"{"at": [0, 0]}"#, "no id for a row that has one"),
        (#"{"at": [0, 9]}"#, "no such row"),
        (#"{"at": [1, 0]}"#, "no such section"),
    ])
    func aRecordedPressOfAnotherRowDoesNotApply(press: String, why: String) throws {
        let value = try CodingFixture.parse(#"{"version": 1, "batch": {"press": \#(press)}}"#)
        let recorded = try RecordedDecoding.change(from: value)
        var table = Self.table
        #expect(throws: BatchError.self, "\(why)") { try table.apply(recorded.batch) }
        #expect(table.version == 0)
    }

    @Test(arguments: [
        (TableIndexPath(0, 2), PressRefusal.notAButton),
        (TableIndexPath(0, 3), .notAButton),
        (TableIndexPath(0, 4), .noRow),
        (TableIndexPath(1, 0), .noRow),
    ])
    func onlyARowWithAButtonIsPressed(indexPath: TableIndexPath, refusal: PressRefusal) {
        #expect(throws: refusal) { try Self.table.pressBatch(at: indexPath) }
    }

    @Test func anUnknownIDIsRefused() {
        #expect(throws: PressRefusal.unknownID("nope")) { try Self.table.pressBatch(forItem: "nope") }
        #expect(throws: PressRefusal.notAButton) { try Self.table.pressBatch(forItem: "wifi") }
    }
}
