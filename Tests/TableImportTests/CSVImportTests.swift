import TableImport
import TableModel
import Testing

/// CSV files into tables: RFC 4180 quoting, a byte order mark, sections and
/// sorting, and every problem reported with the line it is on.
@Suite struct CSVImportTests {
    func table(_ text: String, _ options: CSVImportOptions = CSVImportOptions(), name: String = "cities.csv") throws -> Table {
        try CSVImport.table(csv: Array(text.utf8), name: name, options: options)
    }

    func problems(_ text: String, _ options: CSVImportOptions = CSVImportOptions()) -> [String] {
        problems(bytes: Array(text.utf8), options)
    }

    func problems(bytes: [UInt8], _ options: CSVImportOptions = CSVImportOptions()) -> [String] {
        do throws(CSVImportError) {
            _ = try CSVImport.table(csv: bytes, name: "f.csv", options: options)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    func texts(_ table: Table) -> [[String]] {
        table.sections.map { $0.rows.map(\.text) }
    }

    @Test func quotedFieldsEmbeddedNewlinesAndDoubledQuotes() throws {
        let made = try table("name,detail\r\n\"Los Angeles, CA\",\"two\nlines\"\r\n\"say \"\"hi\"\"\",\r\n")
        #expect(made.id == "cities")
        #expect(texts(made) == [["Los Angeles, CA", "say \"hi\""]])
        #expect(made.sections[0].rows[0].detail == "two\nlines")
        #expect(made.sections[0].rows[0].style == .subtitle)
        #expect(made.sections[0].rows[1].detail == nil, "an empty detail is none")
    }

    @Test func aByteOrderMarkIsNotPartOfTheFirstColumnsName() throws {
        let made = try table("\u{FEFF}text,id\nA,a\n")
        #expect(made.sections[0].rows[0].text == "A")
        #expect(made.sections[0].rows[0].id == "a", "the column \"id\" is found by its name")
    }

    @Test func sectionsInFileOrderRowsSortedWithin() throws {
        let csv = "city,state,population\nNew York,NY,8336817\nBuffalo,NY,278349\nLos Angeles,CA,3979576\nAlbany,NY,99224\nFresno,CA,542107\n"
        let made = try table(csv, CSVImportOptions(title: "Cities", section: .named("state"), sort: .number(3)))
        #expect(made.title == "Cities")
        #expect(made.sections.map(\.header) == ["NY", "CA"])
        #expect(texts(made) == [["Albany", "Buffalo", "New York"], ["Fresno", "Los Angeles"]], "by population, as numbers")
        let sorted = try table(csv, CSVImportOptions(section: .named("state"), sortSections: true))
        #expect(sorted.sections.map(\.header) == ["CA", "NY"])
        #expect(texts(sorted) == [["Los Angeles", "Fresno"], ["New York", "Buffalo", "Albany"]], "file order")
        let byName = try table("name\nitem 10\nItem 2\nitem 1\n", CSVImportOptions(sort: .named("name")))
        #expect(texts(byName) == [["item 1", "Item 2", "item 10"]], "text ignoring case, digits as numbers")
    }

    @Test func badRowsAreReportedWithTheirLinesCountingLineBreaksInsideQuotes() {
        let csv = "name,id\n\"two\nlines\",a\nshort\nok,b\nthree,c,fields\ndup,a\nbad,no spaces\n\nlast,z\n"
        #expect(
            problems(csv) == [
                "line 4: 1 field, but the header has 2",
                "line 6: 3 fields, but the header has 2",
                "line 7: id \"a\" is already the id of line 2",
                "line 8: id \"no spaces\" must match [A-Za-z0-9_-]{1,64}",
            ])
    }

    @Test(arguments: [
        ("a,b\n1,2\n\"3,4\n5,6\n", "line 3: a quoted field opens here and is never closed"),
        ("a,b\n1,2\n3,x\"y\n", "line 3: a quote inside an unquoted field; quote the whole field and write the quote twice (\"\")"),
        ("a,b\n\"1\"2,3\n", "line 2: text after a closing quote; a quote inside a quoted field is written twice (\"\")"),
        ("", "the file is empty: a header row naming the columns comes first"),
        ("\n\n", "the file is empty: a header row naming the columns comes first"),
    ])
    func malformedFilesAreRefusedAtTheirLine(_ refusal: (csv: String, problem: String)) {
        #expect(problems(refusal.csv) == [refusal.problem])
    }

    @Test func textThatIsNotUTF8IsRefusedAtItsLine() {
        #expect(problems(bytes: Array("a\nb\n".utf8) + [0xFF] + Array("\n".utf8)) == ["line 3: not UTF-8 text (save the file as UTF-8)"])
    }

    @Test func unknownColumnsNameTheOnesThereAre() {
        #expect(
            problems("a,b\n1,2\n", CSVImportOptions(text: .named("c"), sort: .number(3))) == [
                "no column named \"c\"; the header names \"a\", \"b\"",
                "no column 3: the header has 2",
            ])
    }

    @Test func theTableIDComesFromTheFileNameOrTheOptions() throws {
        #expect(try table("a\n1\n", name: "/data/US cities 2024.CSV").id == "US-cities-2024")
        #expect(try table("a\n1\n", CSVImportOptions(tableID: "mine")).id == "mine")
        #expect(
            problems("a\n1\n", CSVImportOptions(tableID: "not mine")) == [
                "the table id \"not mine\" must match [A-Za-z0-9_-]{1,64}; give one with --table-id"
            ])
    }

    @Test func aFieldOverTheLimitIsRefused() {
        let long = String(repeating: "x", count: 70_000)
        #expect(problems("a\n\(long)\n") == ["line 2: column \"a\" holds 70000 bytes; the limit is 65536"])
    }
}
