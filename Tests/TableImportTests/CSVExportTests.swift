import JSON
import TableImport
import TableModel
import SeededRandom
import Testing

/// Tables into CSV: the columns, quoting, formulas kept from running, pieces,
/// and export then import giving back the same table.
@Suite struct CSVExportTests {
    func csv(_ table: Table, rowsPerPiece: Int = 1000) -> String {
        String(
            decoding: CSVExport(sections: CSVExportSection.all(of: table), rowsPerPiece: rowsPerPiece).bytes,
            as: UTF8.self)
    }

    @Test func columnsThenOneLinePerRowQuotedWhereNeeded() {
        let table = Table(
            id: "t",
            sections: [
                Section(
                    header: "A, B",
                    rows: [
                        Row(
                            id: "r1", text: "say \"hi\"", detail: "two\nlines",
                            fields: JSONObject([JSONMember("n", .integer(-4))])),
                        Row(
                            text: "=cmd|' /C calc'!A0",
                            fields: JSONObject([JSONMember("w", .double(2.5)), JSONMember("n", .integer(1))])),
                    ]),
                Section(rows: [
                    Row(text: "x", fields: JSONObject([JSONMember("b", .bool(true)), JSONMember("w", .string("-1"))]))
                ]),
            ])
        #expect(
            csv(table)
                == "section,id,text,detail,n,w,b\r\n"
                + #""A, B",r1,"say ""hi""","two"# + "\n" + #"lines",-4,,"# + "\r\n"
                + #""A, B",,'=cmd|' /C calc'!A0,,1,2.5,"# + "\r\n"
                + ",,x,,,'-1,true\r\n")
    }

    @Test func piecesHoldAtMostTheirRowsAndJoinToTheWhole() {
        let table = Table(
            id: "t",
            sections: [
                Section(rows: (0..<5).map { Row(text: "\($0)") }), Section(rows: []), Section(rows: [Row(text: "5")]),
            ])
        let pieces = Array(CSVExport(sections: CSVExportSection.all(of: table), rowsPerPiece: 2))
        #expect(pieces.count == 4, "the header line, then rows 0-1, 2-3, 4-5")
        #expect(pieces.map { String(decoding: $0, as: UTF8.self) }.joined() == csv(table))
    }

    /// Text made to be awkward in CSV: delimiters, quotes, line breaks, formulas' first characters, apostrophes, unicode.
    static func awkwardText(_ random: inout SeededGenerator, nonEmpty: Bool = false) -> String {
        let pieces = [
            ",", "\"", "\r\n", "\n", "\r", "=", "+", "-", "@", "'", "\t", ";", " ", "a", "Zü", "日本", "👩‍👩‍👧", "é", "1",
            "\u{301}",
        ]
        let count = Int.random(in: (nonEmpty ? 1 : 0)...6, using: &random)
        return (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func randomTable(_ random: inout SeededGenerator) -> Table {
        var nextID = 0
        let sectionCount = Int.random(in: 1...4, using: &random)
        // Distinct headers, one of them perhaps none: import groups rows by header.
        var headers: [String?] = Bool.random(using: &random) ? [nil] : []
        while headers.count < sectionCount {
            let header = "s\(headers.count)" + awkwardText(&random)
            if !headers.contains(header) { headers.append(header) }
        }
        let sections = headers.shuffled(using: &random).map { header in
            let rows = (0..<Int.random(in: 1...6, using: &random)).map { _ -> Row in
                var row = Row(text: awkwardText(&random))
                if Bool.random(using: &random) {
                    row.id = "r\(nextID)"
                    nextID += 1
                }
                if Bool.random(using: &random) {
                    row.detail = awkwardText(&random, nonEmpty: true)
                    row.style = .subtitle
                }
                var fields: [JSONMember] = []
                if Bool.random(using: &random) {
                    fields.append(JSONMember("note", .string("n" + awkwardText(&random))))
                }
                if Bool.random(using: &random) {
                    fields.append(JSONMember("count", .integer(Int.random(in: -1000...1000, using: &random))))
                }
                if Bool.random(using: &random) {
                    fields.append(JSONMember("ratio", .double(Double(Int.random(in: -99...99, using: &random)) + 0.25)))
                }
                row.fields = JSONObject(fields)
                return row
            }
            return Section(header: header, rows: rows)
        }
        return Table(id: "t", sections: sections)
    }

    /// What CSV carries of a table.
    struct Carried: Equatable {
        var headers: [String?]
        var rows: [[String?]]
        var fields: [[JSONObject]]

        init(_ table: Table) {
            headers = table.sections.map(\.header)
            rows = table.sections.map { $0.rows.flatMap { [$0.id, $0.text, $0.detail] } }
            fields = table.sections.map {
                $0.rows.map { row in JSONObject(row.fields.members.sorted { $0.key < $1.key }) }
            }
        }
    }

    @Test(arguments: 0..<200)
    func exportThenImportGivesBackTheSameTable(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let table = Self.randomTable(&random)
        let bytes = CSVExport(sections: CSVExportSection.all(of: table), rowsPerPiece: 3).bytes
        let back = try CSVImport.table(csv: bytes, name: "t.csv")
        #expect(
            Carried(back) == Carried(table), "seed \(seed): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
    }

    @Test func compactJSONReadsBackToTheSameTable() throws {
        var generator = SeededGenerator(seed: 7)
        let random = Self.randomTable(&generator)
        let full = Row(
            id: "full", style: .value1, text: "x", detail: "d", image: "/i.png", accessory: .checkmark,
            accessoryView: .badge("3"), selectionStyle: .none, editingStyle: .insert, canEdit: false, canMove: false,
            deleteTitle: "Bin", indentationLevel: 2, height: 60, selected: true, template: "card",
            fields: JSONObject([JSONMember("a", .integer(1))]), link: "/a", detailLink: "/b")
        let table = Table(
            id: "t", title: "T", style: .grouped, header: "h", footer: "f", rowHeight: 30, allowsSelection: false,
            allowsMultipleSelection: true,
            sections: [Section(id: "s", header: "H", footer: "F", indexTitle: "S", rows: [full])] + random.sections)
        let compact = CompactJSON.bytes(of: table)
        #expect(compact.count < table.jsonBytes.count / 2)
        let back = try ModelDecoder.table(from: try JSONParser().parse(compact), limits: .default)
        #expect(back == table)
    }
}
