import JSON
import Testing

@testable import TableModel

/// The compact storage of `Row` (docs/ARCHITECTURE.md, *Rows in memory*): what it
/// stores inline, when it boxes the rare properties, and that neither shows through
/// `Row`'s API, equality or hashing.
@Suite("Row storage")
struct RowStorageTests {
    /// Every rare property set to something other than its default, one at a time.
    static let rareEdits: [(String, @Sendable (inout Row) -> Void)] = [
        ("detail", { $0.detail = "Detail" }),
        ("image", { $0.image = "/i.png" }),
        ("accessoryView", { $0.accessoryView = .badge("3") }),
        ("deleteTitle", { $0.deleteTitle = "Remove" }),
        ("indentationLevel", { $0.indentationLevel = 2 }),
        ("height", { $0.height = 60 }),
        ("template", { $0.template = "card" }),
        ("fields", { $0.fields = JSONObject([JSONMember("a", .integer(1))]) }),
        ("link", { $0.link = "/next" }),
        ("detailLink", { $0.detailLink = "/info" }),
    ]

    @Test func aRowIsFortyEightBytes() {
        // id and text (16 bytes each), the box's reference, 7 one-byte properties.
        #expect(MemoryLayout<Row>.size == 47)
        #expect(MemoryLayout<Row>.stride == 48)
        #expect(MemoryLayout<Row.Inline>.size == 7)
    }

    @Test func aRowOfDefaultsHasNoBox() {
        var row = Row(id: "r1", style: .subtitle, text: "Hello", accessory: .checkmark, canMove: false, selected: true)
        #expect(!row.hasExtras)
        // Setting a rare property to its default, as decoding `"detail": null` does, allocates nothing.
        row.detail = nil
        row.deleteTitle = "Delete"
        row.indentationLevel = 0
        row.fields = JSONObject()
        #expect(!row.hasExtras)
        #expect(!Row(deleteTitle: "Delete", height: nil).hasExtras)
    }

    @Test(arguments: 0..<rareEdits.count)
    func aRarePropertyBoxesAndReadsBack(_ index: Int) {
        let (name, edit) = Self.rareEdits[index]
        var row = Row(id: "r1", text: "Hello")
        edit(&row)
        #expect(row.hasExtras, "\(name)")
        #expect(row != Row(id: "r1", text: "Hello"), "\(name)")
        // The other properties keep their defaults.
        var expected = Row(id: "r1", text: "Hello")
        edit(&expected)
        #expect(row == expected)
        #expect(row.hashValue == expected.hashValue)
        #expect(row.jsonBytes == expected.jsonBytes)
    }

    @Test func theInitializerAndTheSettersMakeEqualRows() {
        let made = Row(
            id: "a", style: .value1, text: "T", detail: "D", image: "/i.png", accessory: .detailButton,
            accessoryView: .switch(isOn: true, isEnabled: false), selectionStyle: .none, editingStyle: .insert,
            canEdit: false, canMove: false, deleteTitle: "X", indentationLevel: 3, height: 44.5, selected: true,
            template: nil, fields: JSONObject(), link: "/l", detailLink: "/d")
        var set = Row(id: "a", text: "T")
        set.style = .value1
        set.detail = "D"
        set.image = "/i.png"
        set.accessory = .detailButton
        set.accessoryView = .switch(isOn: true, isEnabled: false)
        set.selectionStyle = .none
        set.editingStyle = .insert
        set.canEdit = false
        set.canMove = false
        set.deleteTitle = "X"
        set.indentationLevel = 3
        set.height = 44.5
        set.selected = true
        set.link = "/l"
        set.detailLink = "/d"
        #expect(made == set)
        #expect(made.hashValue == set.hashValue)
        #expect(made.jsonBytes == set.jsonBytes)
        #expect(set.detail == "D" && set.indentationLevel == 3 && set.height == 44.5 && !set.canEdit)
    }

    @Test func aBoxBackAtItsDefaultsEqualsNoBox() {
        var row = Row(id: "r1", text: "Hello")
        row.detail = "Detail"
        row.detail = nil
        #expect(row.hasExtras)
        let plain = Row(id: "r1", text: "Hello")
        #expect(row == plain)
        #expect(row.hashValue == plain.hashValue)
        #expect(Set([row, plain]).count == 1)
        #expect(row.jsonBytes == plain.jsonBytes)
    }

    @Test func copiesShareTheBoxUntilOneChanges() {
        var original = Row(id: "r1", text: "Hello", detail: "One", indentationLevel: 1)
        var copy = original
        copy.detail = "Two"
        copy.indentationLevel = 2
        #expect(original.detail == "One" && original.indentationLevel == 1)
        #expect(copy.detail == "Two" && copy.indentationLevel == 2)
        original.height = 10
        #expect(copy.height == nil)
        #expect(original.detail == "One" && original.height == 10)
    }

    @Test func rowsInATreeKeepTheirRarePropertiesThroughEdits() {
        var rows = RowList((0..<200).map { Row(id: "r\($0)", text: "\($0)", detail: $0 % 3 == 0 ? "d\($0)" : nil) })
        let before = rows
        for step in 0..<100 { rows.move(from: step * 7 % 200, to: step * 13 % 200) }
        rows[5].detail = "changed"
        #expect(Set(rows.map(\.id)) == Set(before.map(\.id)))
        for row in rows where row.id != rows[5].id {
            let number = Int(row.text)!
            #expect(row.detail == (number % 3 == 0 ? "d\(number)" : nil))
        }
        #expect(before.first { $0.id == rows[5].id }?.detail != "changed")
    }
}
