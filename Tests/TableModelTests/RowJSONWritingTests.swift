import JSON
import TableModel
import Testing

/// `Row.writeJSON` writes its members in three steps of reserved room, sized from
/// the strings' lengths; these rows take every step's worst case (text that
/// escapes to six bytes a byte), every accessory view and `fields`, and are held
/// to the same object written member by member through `JSONWriter.object`.
@Suite struct RowJSONWritingTests {
    static let worst = [
        "", "\u{1}\u{1f}\u{0}", String(repeating: "\u{2028}\u{2029}", count: 40),
        String(repeating: "\"\\<>&", count: 30),
        "Zoë 🇫🇷\n\r\t", String(repeating: "x", count: 5000),
    ]

    static func rows() -> [Row] {
        var rows: [Row] = []
        let views: [AccessoryView?] = [
            nil, .switch(isOn: true, isEnabled: false), .badge(worst[3]), .activityIndicator, .button(title: worst[2]),
        ]
        for (index, text) in worst.enumerated() {
            for (number, view) in views.enumerated() {
                let other = worst[(index + number + 1) % worst.count]
                rows.append(
                    Row(
                        id: number % 2 == 0 ? text : nil, style: CellStyle.allCases[number % CellStyle.allCases.count],
                        text: text, detail: other, image: number % 3 == 0 ? nil : text,
                        accessory: Accessory.allCases[(index + number) % Accessory.allCases.count], accessoryView: view,
                        selectionStyle: SelectionStyle.allCases[number % 2],
                        editingStyle: EditingStyle.allCases[index % EditingStyle.allCases.count],
                        canEdit: number % 2 == 1,
                        canMove: index % 2 == 1, deleteTitle: other,
                        indentationLevel: index == 0 ? Int.min : index * 1000,
                        height: [nil, 44, -0.0, 1e300, 61.25, .infinity][(index + number) % 6], selected: number == 3,
                        template: number % 2 == 1 ? other : nil,
                        fields: number % 2 == 0 ? JSONObject() : JSONObject([JSONMember(text, .string(other))]),
                        link: text, detailLink: number == 4 ? nil : other))
            }
        }
        return rows
    }

    /// The row as docs/FORMAT.md lists its members, written one by one.
    static func reference(_ row: Row) -> [UInt8] {
        var accessoryView = JSONWriter()
        if let view = row.accessoryView { view.writeJSON(to: &accessoryView) } else { accessoryView.null() }
        let string: (String?) -> JSONValue = { $0.map(JSONValue.string) ?? .null }
        let members: [(String, JSONValue)] = [
            ("id", string(row.id)), ("style", .string(row.style.rawValue)), ("text", .string(row.text)),
            ("detail", string(row.detail)), ("image", string(row.image)),
            ("accessory", .string(row.accessory.rawValue)),
        ]
        let rest: [(String, JSONValue)] = [
            ("selectionStyle", .string(row.selectionStyle.rawValue)),
            ("editingStyle", .string(row.editingStyle.rawValue)),
            ("canEdit", .bool(row.canEdit)), ("canMove", .bool(row.canMove)), ("deleteTitle", .string(row.deleteTitle)),
            ("indentationLevel", .integer(row.indentationLevel)), ("height", row.height.map(JSONValue.double) ?? .null),
            ("selected", .bool(row.selected)), ("template", string(row.template)), ("fields", .object(row.fields)),
            ("link", string(row.link)), ("detailLink", string(row.detailLink)),
        ]
        var writer = JSONWriter()
        writer.beginObject()
        for (key, value) in members {
            writer.key(key)
            writer.value(value)
        }
        writer.key("accessoryView")
        writer.rawValue(accessoryView.bytes)
        for (key, value) in rest {
            writer.key(key)
            writer.value(value)
        }
        writer.endObject()
        return writer.bytes
    }

    @Test func rowsWriteWhatTheirMembersWrite() throws {
        for row in Self.rows() {
            #expect(row.jsonBytes == Self.reference(row))
            _ = try JSONParser().parse(row.jsonBytes)
        }
    }

    /// In a list, each row after the first gets its comma from the writer's place.
    @Test func rowsInAnArrayAreSeparated() throws {
        var writer = JSONWriter()
        writer.array { list in
            for row in Self.rows() { row.writeJSON(to: &list) }
        }
        var expected: [UInt8] = [UInt8(ascii: "[")]
        for (index, row) in Self.rows().enumerated() {
            if index > 0 { expected.append(UInt8(ascii: ",")) }
            expected += Self.reference(row)
        }
        expected.append(UInt8(ascii: "]"))
        #expect(writer.bytes == expected)
    }
}
