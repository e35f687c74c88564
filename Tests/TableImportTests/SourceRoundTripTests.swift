import JSON
import TableImport
import TableModel
import Testing

/// A table made from a file remembers how (`TableSource`), exports the file's
/// own columns with every cell as it was read, and is made the same way again
/// by the same file (docs/FORMAT.md, "source").
@Suite struct SourceRoundTripTests {
    func export(_ table: Table) -> String {
        String(
            decoding: CSVExport(sections: CSVExportSection.all(of: table), source: table.source).bytes, as: UTF8.self)
    }

    static let airports =
        "iata,name,city,state,lat,elev ft,code,note\r\n" + "ORD,O'Hare,Chicago,IL,41.97960,668,007,\r\n"
        + "MDW,Midway,Chicago,IL,41.78598,620,010,\"a \"\"quoted\"\" note\"\r\n"
        + "JFK,Kennedy,New York,NY,40.63975,13,1,\r\n"
        + "LGA,\"La Guardia, NY\",New York,NY,40.77724,1e1,2,\"two\nlines\"\r\n"
        + "BIG,Big,Big Town,NY,1.50,-0,12345678901234567890,\r\n"

    @Test func anUnchangedTableExportsTheFileAsItCame() throws {
        var options = CSVImportOptions(text: .named("name"), id: .named("iata"), section: .named("state"))
        options.tableID = "airports"
        let table = try CSVImport.table(csv: Array(Self.airports.utf8), name: "airports.csv", options: options)
        #expect(table.sections.map(\.header) == ["IL", "NY"])
        #expect(export(table) == Self.airports)
        let source = try #require(table.source)
        #expect(source.columns == ["iata", "name", "city", "state", "lat", "elev ft", "code", "note"])
        #expect(source.fields.map(\.name) == ["city", "lat", "elev_ft", "code", "note"])
        #expect(table.sections[1].rows[2].fields["lat"] == JSONValue.number(literal: "1.50"))
        #expect(
            table.sections[1].rows[2].fields["code"] == .string("12345678901234567890"), "a column with 007 is text")
    }

    @Test func numbersKeepTheirDigitsAndLookalikesStayText() throws {
        let csv = "name,n\r\na,1.50\r\nb,1e3\r\nc,-0\r\nd,12345678901234567890\r\n"
        let table = try CSVImport.table(csv: Array(csv.utf8), name: "n.csv")
        let values = table.sections[0].rows.map { $0.fields["n"] }
        #expect(values == ["1.50", "1e3", "-0", "12345678901234567890"].map { JSONValue.number(literal: $0) })
        #expect(export(table) == csv)
        for lookalike in ["01234", "+5", " 7", "1,5", "0x1F", "1.", "NaN"] {
            let text = "name;n\r\na;\"\(lookalike)\"\r\n"
            let made = try CSVImport.table(csv: Array(text.utf8), name: "l.csv")
            #expect(made.sections[0].rows[0].fields["n"] == .string(lookalike))
        }
    }

    @Test func theSameFileSentAgainIsMadeTheSameWay() throws {
        var options = CSVImportOptions(
            text: .named("name"), id: .named("iata"), section: .named("state"), sortSections: true)
        options.setSort("-elev ft")
        let table = try CSVImport.table(csv: Array(Self.airports.utf8), name: "airports.csv", options: options)
        var again = CSVImportOptions()
        again.remember(try #require(table.source))
        #expect(again.text == .named("name") && again.id == .named("iata") && again.section == .named("state"))
        #expect(again.sort == .named("elev ft") && again.sortDescending && again.sortSections)
        #expect(again.fields == .remaining, "every other column was a field, so a new column will be one too")
        let remade = try CSVImport.table(csv: Array(Self.airports.utf8), name: "airports.csv", options: again)
        #expect(remade == table)
    }

    @Test func chosenFieldsAreRememberedAndColumnsNotKeptAreNotExported() throws {
        let csv = "name,a,b,c\r\nx,1,2,3\r\n"
        let table = try CSVImport.table(
            csv: Array(csv.utf8), name: "f.csv", options: CSVImportOptions(fields: CSVImportOptions.fieldColumns("c,a"))
        )
        var again = CSVImportOptions()
        again.remember(try #require(table.source))
        #expect(again.fields == .columns([.named("c"), .named("a")]))
        #expect(export(table) == "name,a,c\r\nx,1,3\r\n")
    }

    @Test func repeatedHeadersAreNamedByNumber() throws {
        let csv = "name,x,x\r\nr,1,2\r\n"
        let table = try CSVImport.table(csv: Array(csv.utf8), name: "d.csv")
        let source = try #require(table.source)
        #expect(source.reference(to: 1) == .number(2) && source.reference(to: 0) == .named("name"))
        #expect(export(table) == csv)
        let written = String(decoding: table.jsonBytes, as: UTF8.self)
        #expect(written.contains(#""fields":{"x":2,"x_2":3}"#))
        #expect(try ModelDecoder.table(from: JSONParser().parse(table.jsonBytes)) == table)
    }

    @Test func fieldsAddedLaterComeAfterTheFilesColumns() throws {
        var table = try CSVImport.table(csv: Array("name,n\r\na,1\r\n".utf8), name: "a.csv")
        var row = table.sections[0].rows[0]
        row.fields["added"] = .string("yes")
        try table.apply(Batch(reloadRows: [.init(at: TableIndexPath(0, 0), row: row)]))
        #expect(export(table) == "name,n,added\r\na,1,yes\r\n")
    }

    @Test func tablesMadeFromJSONKeepTheUsualColumns() {
        let table = Table(id: "t", sections: [Section(header: "S", rows: [Row(id: "r", text: "x", detail: "d")])])
        #expect(export(table) == "section,id,text,detail\r\nS,r,x,d\r\n")
    }

    /// Found by an outside check: 8,000 commas took 4 s, 40,000 took 132 s,
    /// since every empty header was numbered from 2 again (`column_2`, …).
    @Test func manyEqualHeadersAreNumberedOnceEach() throws {
        let header = String(repeating: ",", count: 255) + "\r\n"
        let row = (0..<256).map(String.init).joined(separator: ",") + "\r\n"
        let table = try CSVImport.table(csv: Array((header + row).utf8), name: "e.csv")
        let names = try #require(table.source).fields.map(\.name)
        #expect(names.first == "column" && names.last == "column_255" && Set(names).count == 255)
        let wide = String(repeating: ",", count: 40_000) + "\r\n"
        do throws(CSVImportError) {
            _ = try CSVImport.table(csv: Array(wide.utf8), name: "c.csv")
            Issue.record("a header of 40,001 columns was read")
        } catch {
            #expect(error.report == ["40001 columns; a file holds at most 2000"])
        }
    }
}

/// The records a file makes: JSON arrays, encodings, quoted empty records.
@Suite struct RecordsImportTests {
    @Test func aJSONArrayOfRecordsImportsLikeACSVFile() throws {
        let json = try JSONParser().parse(
            #"[{"name": "Ann", "age": 31, "zip": "01234", "team": "a"}, {"name": "Bob", "age": 1.50, "tags": ["x"], "team": "b"}, {"age": null, "name": "Cy", "team": "a"}]"#
        )
        #expect(CSVImport.isRecords(json))
        let table = try CSVImport.table(
            records: json, name: "people", options: CSVImportOptions(section: .named("team")))
        #expect(table.id == "people")
        #expect(table.sections.map { $0.rows.map(\.text) } == [["Ann", "Cy"], ["Bob"]])
        let ann = table.sections[0].rows[0].fields
        #expect(ann == JSONObject([JSONMember("age", .integer(31)), JSONMember("zip", .string("01234"))]))
        #expect(table.sections[1].rows[0].fields["age"] == JSONValue.number(literal: "1.50"))
        #expect(table.sections[1].rows[0].fields["tags"] == .array([.string("x")]))
        #expect(table.sections[0].rows[1].fields.isEmpty, "null is no field")
        #expect(table.source?.format == .json && table.source?.columns == ["name", "age", "zip", "team", "tags"])
    }

    @Test func recordsProblemsNameTheirPlace() {
        let json = try! JSONParser().parse(#"[{"id": "a", "name": "x"}, 5, {"id": "a", "name": "y"}]"#)
        do throws(CSVImportError) {
            _ = try CSVImport.table(records: json, name: "r")
            Issue.record("made a table")
        } catch {
            #expect(
                error.report == [
                    "$[1]: expected a record (an object), found a number", "$[2]: id \"a\" is already the id of $[0]",
                ])
        }
    }

    @Test func tableDocumentsAreNotRecords() throws {
        #expect(!CSVImport.isRecords(try JSONParser().parse(#"[{"id": "t", "sections": []}]"#)))
        #expect(!CSVImport.isRecords(try JSONParser().parse(#"{"id": "t"}"#)))
        #expect(CSVImport.isRecords(try JSONParser().parse(#"[{"id": "t"}]"#)))
    }

    @Test func aQuotedEmptyRecordIsARowAndABlankLineIsNot() throws {
        let table = try CSVImport.table(csv: Array("a\r\n\"\"\r\n\r\nx\n\n\"\"".utf8), name: "one.csv")
        #expect(table.sections[0].rows.map(\.text) == ["", "x", ""])
    }

    @Test(arguments: [
        (TextEncoding.latin1, [0x43, 0x61, 0x66, 0xE9] as [UInt8], "Café"),
        (.windows1252, [0x93, 0x51, 0x94, 0x20, 0x80, 0x96], "“Q” €–"),
        (.utf8, [0xEF, 0xBB, 0xBF, 0x43, 0xC3, 0xA9], "Cé"),
        (.latin1, [0xEF, 0xBB, 0xBF, 0x43, 0xC3, 0xA9], "Cé"),
        (.utf8, [0xFF, 0xFE, 0x43, 0x00, 0xE9, 0x00], "Cé"),
        (.utf8, [0xFE, 0xFF, 0x00, 0x43, 0x00, 0xE9], "Cé"),
    ])
    func encodingsAndByteOrderMarks(encoding: TextEncoding, bytes: [UInt8], text: String) throws {
        let header: [UInt8] = encoding == .utf8 && bytes.first == 0xFF ? [0x6E, 0x00, 0x0A, 0x00] : Array("n\n".utf8)
        let file: [UInt8]
        switch bytes.first {
        case 0xFF: file = [0xFF, 0xFE] + header + Array(bytes.dropFirst(2))
        case 0xFE: file = [0xFE, 0xFF, 0x00, 0x6E, 0x00, 0x0A] + Array(bytes.dropFirst(2))
        case 0xEF: file = [0xEF, 0xBB, 0xBF] + header + Array(bytes.dropFirst(3))
        default: file = header + bytes
        }
        let table = try CSVImport.table(csv: file, name: "e.csv", options: CSVImportOptions(encoding: encoding))
        #expect(table.sections[0].rows.map(\.text) == [text])
        #expect(TextEncoding(named: encoding.rawValue.uppercased()) == encoding)
    }
}
