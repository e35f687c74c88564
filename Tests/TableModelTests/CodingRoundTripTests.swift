import JSON
import TableModel
import Testing

@Suite struct CodingRoundTripTests {
    @Test func decodesEveryFieldOfATable() throws {
        let table = try ModelDecoder.table(from: CodingFixture.parse(CodingFixture.fullTable))
        #expect(table.id == "countries")
        #expect(table.title == "Countries")
        #expect(table.style == .insetGrouped)
        #expect(table.header == "All the countries")
        #expect(table.footer == "That is all")
        #expect(table.rowHeight == 52.5)
        #expect(!table.allowsSelection)
        #expect(table.allowsMultipleSelection)
        #expect(table.version == 0, "version is output only")
        #expect(table.sections.count == 3)
        #expect(table.rowCount == 4)

        let uk = table.sections[0]
        #expect(uk.id == "uk" && uk.header == "United Kingdom" && uk.footer == "Four nations" && uk.indexTitle == "U")
        let england = Row(
            id: "england", style: .subtitle, text: "England", detail: "London", image: "/public/flags/england.png",
            accessory: .detailDisclosureButton, accessoryView: .switch(isOn: true, isEnabled: false),
            selectionStyle: .none, editingStyle: .insert, canEdit: false,
            canMove: false, deleteTitle: "Remove", indentationLevel: 2, height: 60, selected: true,
            link: "https://example.com/england", detailLink: "../info/england")
        #expect(uk.rows[0] == england)
        #expect(uk.rows[1] == Row(id: "scotland", text: "Scotland"))

        let custom = table.sections[1].rows[0]
        #expect(custom.style == .custom && custom.template == "flag-card")
        #expect(custom.fields["capital"] == .string("Paris"))
        #expect(custom.fields.keys == ["capital", "population", "tags"])
        #expect(table.sections[1].rows[1] == Row())
        #expect(table.sections[2] == Section())
        #expect(table.ids.sectionIDs == ["uk"])
        #expect(table.ids.rowIDs == ["england", "scotland"])
    }

    @Test func fillsInSpecDefaults() throws {
        let table = try ModelDecoder.table(from: CodingFixture.parse(#"{"id": "t", "sections": [{"rows": [{}]}]}"#))
        #expect(table == Table(id: "t", sections: [Section(rows: [Row()])]))
        let row = table.sections[0].rows[0]
        #expect(row.style == .default && row.text == "" && row.accessory == .none)
        #expect(row.editingStyle == .delete && row.canEdit && row.canMove && row.deleteTitle == "Delete")
        #expect(
            table.style == .plain && table.rowHeight == 44 && table.allowsSelection && !table.allowsMultipleSelection)
    }

    @Test func decodeEncodeDecodeIsStable() throws {
        let first = try ModelDecoder.table(from: CodingFixture.parse(CodingFixture.fullTable))
        let encoded = first.jsonBytes
        let second = try ModelDecoder.table(from: JSONParser().parse(encoded))
        #expect(second == first)
        #expect(second.jsonBytes == encoded)
    }

    @Test func aFetchedTableCanBeSentBack() throws {
        var table = try ModelDecoder.table(from: CodingFixture.parse(CodingFixture.fullTable))
        table.version = 41
        let again = try ModelDecoder.table(from: JSONParser().parse(table.jsonBytes))
        table.version = 0
        #expect(again == table)
    }

    @Test func hostileTextRoundTrips() throws {
        let hostile = [
            "\"quoted\" and \\backslashed\\", "<script>alert('x')</script>", "nul\u{0}byte", "emoji 😀👩‍👩‍👧 中文",
            "line\nbreak\r\n\u{2028}\u{2029}", "&amp; </tbody>", "\u{7F}\u{1B}[31m", "\u{FEFF}bom",
        ]
        let rows = hostile.enumerated().map { index, text in
            Row(
                id: "r\(index)", text: text, detail: text, deleteTitle: text,
                fields: JSONObject([JSONMember("t", .string(text))]))
        }
        let table = Table(
            id: "hostile", title: hostile[1], header: hostile[0], footer: hostile[3],
            sections: [Section(id: "s", header: hostile[1], footer: hostile[2], indexTitle: hostile[3], rows: rows)])
        let bytes = table.jsonBytes
        let text = CodingFixture.text(bytes)
        #expect(!text.contains("<script>") && !text.contains("\n") && !text.contains("\u{2028}"))
        #expect(try ModelDecoder.table(from: JSONParser().parse(bytes)) == table)
    }

    @Test func sectionRowAndBatchRoundTrip() throws {
        let table = try ModelDecoder.table(from: CodingFixture.parse(CodingFixture.fullTable))
        let section = table.sections[0]
        #expect(try ModelDecoder.section(from: JSONParser().parse(section.jsonBytes)) == section)
        for row in table.sections[1].rows {
            #expect(try ModelDecoder.row(from: JSONParser().parse(row.jsonBytes)) == row)
        }

        let batch = Batch(
            deleteSections: [2], insertSections: [.init(at: 1, section: section)],
            reloadSections: [.init(at: 0, section: Section(header: "h"))], moveSections: [.init(from: 3, to: 0)],
            deleteRows: [TableIndexPath(0, 1)], insertRows: [.init(at: TableIndexPath(0, 2), row: Row(text: "n"))],
            reloadRows: [.init(at: TableIndexPath(0, 4), row: Row(id: "x"))],
            moveRows: [.init(from: TableIndexPath(1, 0), to: TableIndexPath(0, 3))],
            properties: TableProperties(title: .some(nil), style: .grouped, rowHeight: 50), animation: .fade)
        #expect(try ModelDecoder.batch(from: JSONParser().parse(batch.jsonBytes)) == batch)
    }

    @Test func takesTheIDFromThePathWhenTheBodyHasNone() throws {
        let table = try ModelDecoder.table(from: CodingFixture.parse(#"{"title": "T"}"#), defaultID: "from-path")
        #expect(table.id == "from-path" && table.title == "T")
        let named = try ModelDecoder.table(from: CodingFixture.parse(#"{"id": "own"}"#), defaultID: "from-path")
        #expect(named.id == "own")
    }

    @Test func decodesOneTableOrAnArrayOfThem() throws {
        let one = try ModelDecoder.tables(from: CodingFixture.parse(#"{"id": "a"}"#))
        #expect(one.map(\.id) == ["a"])
        let many = try ModelDecoder.tables(
            from: CodingFixture.parse(#"[{"id": "a"}, {"id": "b", "style": "grouped"}]"#))
        #expect(many.map(\.id) == ["a", "b"])
        #expect(many[1].style == .grouped)
        #expect(try ModelDecoder.tables(from: CodingFixture.parse("[]")).isEmpty)
    }

    @Test func acceptsIntegralNumbersWrittenWithAFraction() throws {
        let table = try ModelDecoder.table(
            from: CodingFixture.parse(
                #"{"id": "t", "rowHeight": 44.0, "sections": [{"rows": [{"indentationLevel": 2.0, "height": 1e2}]}]}"#))
        #expect(table.rowHeight == 44)
        #expect(table.sections[0].rows[0].indentationLevel == 2)
        #expect(table.sections[0].rows[0].height == 100)
    }

    /// A number in `fields` keeps the literal it was sent with (docs/FORMAT.md,
    /// "Numbers"), and the row reads back equal from the server's own JSON (found
    /// by Fuzz/FuzzDecode when `2.0` was written back as `2`).
    @Test func numbersInFieldsKeepTheirLiterals() throws {
        let document =
            #"{"id": "t", "sections": [{"rows": [{"fields": {"a": 2.0, "b": [-0.0, 1e2, 2.5, 1.50], "c": {"d": 1e300}, "e": 12345678901234567890, "f": -0}}]}]}"#
        let table = try ModelDecoder.table(from: CodingFixture.parse(document))
        let fields = table.sections[0].rows[0].fields
        let literals = ["2.0", "-0.0", "1e2", "2.5", "1.50", "1e300", "12345678901234567890", "-0"]
        let numbers = literals.map { JSONValue.number(literal: $0)! }
        #expect(fields["a"] == numbers[0])
        #expect(fields["b"] == .array(Array(numbers[1...4])))
        #expect(fields["c"] == .object(JSONObject([JSONMember("d", numbers[5])])))
        #expect(fields["e"] == numbers[6])
        #expect(fields["f"] == numbers[7])
        let written = String(decoding: table.jsonBytes, as: UTF8.self)
        #expect(
            written.contains(
                #""fields":{"a":2.0,"b":[-0.0,1e2,2.5,1.50],"c":{"d":1e300},"e":12345678901234567890,"f":-0}"#))
        #expect(try ModelDecoder.table(from: JSONParser().parse(table.jsonBytes)) == table)
    }

    @Test func nullMeansNoneForOptionals() throws {
        let row = try ModelDecoder.row(
            from: CodingFixture.parse(
                #"""
                {"id": null, "detail": null, "image": null, "height": null, "template": null, "link": null, "detailLink": null}
                """#))
        #expect(row == Row())
        let section = try ModelDecoder.section(
            from: CodingFixture.parse(#"{"id": null, "header": null, "footer": null, "indexTitle": null}"#))
        #expect(section == Section())
    }
}
