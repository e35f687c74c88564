import JSON
import Testing
@testable import TableModel

/// A row's `accessoryView` (docs/FORMAT.md, "Accessory views"): decoded strictly,
/// written back, and diffed as a change of the row's content.
@Suite struct AccessoryViewTests {
    private func row(_ text: String) throws -> Row {
        try ModelDecoder.row(from: CodingFixture.parse(text))
    }

    @Test func decodesEachTypeWithItsDefaults() throws {
        #expect(
            try row(#"{"accessoryView": {"type": "switch"}}"#).accessoryView == .switch(isOn: false, isEnabled: true))
        #expect(
            try row(#"{"accessoryView": {"type": "switch", "on": true, "enabled": false}}"#).accessoryView
                == .switch(isOn: true, isEnabled: false))
        #expect(try row(#"{"accessoryView": {"type": "badge", "text": "12"}}"#).accessoryView == .badge("12"))
        #expect(try row(#"{"accessoryView": {"type": "activityIndicator"}}"#).accessoryView == .activityIndicator)
        #expect(
            try row(#"{"accessoryView": {"type": "button", "title": "Update"}}"#).accessoryView
                == .button(title: "Update"))
        #expect(try row(#"{"accessoryView": null, "accessory": "checkmark"}"#).accessoryView == nil)
        #expect(try row("{}").accessoryView == nil)
    }

    @Test func keepsTheStandardAccessoryBesideTheView() throws {
        let decoded = try row(#"{"accessory": "disclosureIndicator", "accessoryView": {"type": "badge", "text": "3"}}"#)
        #expect(decoded.accessory == .disclosureIndicator)
        #expect(decoded.accessoryView == .badge("3"))
    }

    @Test(arguments: [
        (
            #"{"accessoryView": "switch"}"#,
            "$.sections[0].rows[0].accessoryView: expected an object or null, found a string"
        ),
        (#"{"accessoryView": {}}"#, #"$.sections[0].rows[0].accessoryView: missing required field "type""#),
        (
            #"{"accessoryView": {"type": "slider"}}"#,
            #"$.sections[0].rows[0].accessoryView.type: unknown value "slider"; expected one of "switch", "badge", "activityIndicator", "button""#
        ),
        (
            #"{"accessoryView": {"type": 1}}"#,
            "$.sections[0].rows[0].accessoryView.type: expected a string, found a number"
        ),
        (
            #"{"accessoryView": {"type": "switch", "on": "yes"}}"#,
            "$.sections[0].rows[0].accessoryView.on: expected true or false, found a string"
        ),
        (
            #"{"accessoryView": {"type": "switch", "enabled": null}}"#,
            "$.sections[0].rows[0].accessoryView.enabled: expected true or false, found null"
        ),
        (
            #"{"accessoryView": {"type": "switch", "title": "x"}}"#,
            #"$.sections[0].rows[0].accessoryView: unknown field "title""#
        ),
        (
            #"{"accessoryView": {"type": "button", "on": true, "title": "Go"}}"#,
            #"$.sections[0].rows[0].accessoryView: unknown field "on""#
        ),
        (
            #"{"accessoryView": {"type": "badge"}}"#,
            #"$.sections[0].rows[0].accessoryView: missing required field "text""#
        ),
        (
            #"{"accessoryView": {"type": "badge", "text": 3}}"#,
            "$.sections[0].rows[0].accessoryView.text: expected a string, found a number"
        ),
        (
            #"{"accessoryView": {"type": "button"}}"#,
            #"$.sections[0].rows[0].accessoryView: missing required field "title""#
        ),
        (
            #"{"accessoryView": {"type": "activityIndicator", "text": "x"}}"#,
            #"$.sections[0].rows[0].accessoryView: unknown field "text""#
        ),
    ])
    func refusesABadAccessoryView(row: String, issue: String) throws {
        #expect(try CodingFixture.rowIssues(row) == [issue])
    }

    @Test func writesEveryMemberOfItsType() throws {
        func json(_ view: AccessoryView) -> String {
            var writer = JSONWriter()
            view.writeJSON(to: &writer)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        guard case .object(let written) = try JSONParser().parse(Row(text: "a").jsonBytes) else {
            Issue.record("a row is written as an object")
            return
        }
        #expect(written["accessoryView"] == JSONValue.null)
        #expect(json(.switch(isOn: true, isEnabled: false)) == #"{"type":"switch","on":true,"enabled":false}"#)
        #expect(json(.badge("<3>")) == #"{"type":"badge","text":"\u003c3\u003e"}"#)
        #expect(json(.activityIndicator) == #"{"type":"activityIndicator"}"#)
        #expect(json(.button(title: "Go")) == #"{"type":"button","title":"Go"}"#)
    }

    @Test(arguments: [
        AccessoryView.switch(isOn: true, isEnabled: true), .switch(isOn: false, isEnabled: false),
        .badge("9+"), .activityIndicator, .button(title: "Check for Update"),
    ])
    func roundTrips(view: AccessoryView) throws {
        let original = Row(id: "r", text: "t", accessory: .checkmark, accessoryView: view)
        #expect(try ModelDecoder.row(from: JSONParser().parse(original.jsonBytes)) == original)
    }

    @Test func aFlippedSwitchIsAReloadOfTheRowNotAMove() throws {
        func settings(_ wifi: Bool) -> Table {
            Table(
                id: "settings",
                sections: [
                    Section(
                        id: "s",
                        rows: [
                            Row(
                                id: "airplane", text: "Airplane Mode",
                                accessoryView: .switch(isOn: false, isEnabled: true)),
                            Row(id: "wifi", text: "Wi-Fi", accessoryView: .switch(isOn: wifi, isEnabled: true)),
                            Row(
                                id: "bluetooth", text: "Bluetooth", accessoryView: .switch(isOn: true, isEnabled: true)),
                        ])
                ])
        }
        let batches = SnapshotDiff.batches(from: settings(false), to: settings(true))
        #expect(batches.count == 1)
        let batch = try #require(batches.first)
        #expect(batch.reloadRows == [Batch.RowItem(at: TableIndexPath(0, 1), row: settings(true).sections[0].rows[1])])
        #expect(batch.moveRows.isEmpty && batch.deleteRows.isEmpty && batch.insertRows.isEmpty)
        var table = settings(false)
        for batch in batches { _ = try table.apply(batch) }
        #expect(table.sections == settings(true).sections)
    }
}
