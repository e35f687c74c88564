import JSON
import TableImport
import TableModel
import Testing

/// CSV files into tables: RFC 4180 quoting, a byte order mark, sections and
/// sorting, and every problem reported with the line it is on.
@Suite struct CSVImportTests {
    func table(_ text: String, _ options: CSVImportOptions = CSVImportOptions(), name: String = "cities.csv") throws
        -> Table
    {
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
        let csv =
            "city,state,population\nNew York,NY,8336817\nBuffalo,NY,278349\nLos Angeles,CA,3979576\nAlbany,NY,99224\nFresno,CA,542107\n"
        let made = try table(csv, CSVImportOptions(title: "Cities", section: .named("state"), sort: .number(3)))
        #expect(made.title == "Cities")
        #expect(made.sections.map(\.header) == ["NY", "CA"])
        #expect(
            texts(made) == [["Albany", "Buffalo", "New York"], ["Fresno", "Los Angeles"]], "by population, as numbers")
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
        (
            "a,b\n1,2\n3,x\"y\n",
            "line 3: a quote inside an unquoted field; quote the whole field and write the quote twice (\"\")"
        ),
        (
            "a,b\n\"1\"2,3\n",
            "line 2: text after a closing quote; a quote inside a quoted field is written twice (\"\")"
        ),
        ("", "the file is empty: a header row naming the columns comes first"),
        ("\n\n", "the file is empty: a header row naming the columns comes first"),
    ])
    func malformedFilesAreRefusedAtTheirLine(_ refusal: (csv: String, problem: String)) {
        #expect(problems(refusal.csv) == [refusal.problem])
    }

    @Test func textThatIsNotUTF8IsRefusedAtItsLine() {
        #expect(
            problems(bytes: Array("a\nb\n".utf8) + [0xFF] + Array("\n".utf8)) == [
                "line 3: not UTF-8 text (save the file as UTF-8)"
            ])
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

/// Reading on after a problem, summing up many, and the columns beyond text,
/// detail, id and section.
@Suite struct CSVImportColumnTests {
    let helper = CSVImportTests()

    @Test func everyProblemIsFoundReadingOnAtTheNextLine() {
        let csv = "a,b\n1,x\"y\n2,3,4\n8,\"9\"!\n10\n\"open,5\n6,7\n"
        #expect(
            helper.problems(csv) == [
                "line 2: a quote inside an unquoted field; quote the whole field and write the quote twice (\"\")",
                "line 3: 3 fields, but the header has 2",
                "line 4: text after a closing quote; a quote inside a quoted field is written twice (\"\")",
                "line 5: 1 field, but the header has 2",
                "line 6: a quoted field opens here and is never closed",
            ])
        #expect(
            helper.problems("a,b\n\"open,5\n6,7,8\n") == [
                "line 2: a quoted field opens here and is never closed", "line 3: 3 fields, but the header has 2",
            ], "reading goes on at the line after the quote")
    }

    @Test func aLongListOfProblemsIsCutAtTwentyLines() {
        let csv = "a,b\n" + String(repeating: "x\n", count: 30)
        let error = CSVImportError(problems: (2...31).map { .init(line: $0, "1 field, but the header has 2") })
        #expect(helper.problems(csv).count == 30)
        #expect(error.report.count == 21)
        #expect(error.report.last == "and 10 more problems")
    }

    @Test func manyRepeatedIdsAreSummedUpFirst() throws {
        let csv = "name,id\n" + (0..<1562).map { "n\($0),same\n" }.joined()
        do throws(CSVImportError) {
            _ = try CSVImport.table(csv: Array(csv.utf8), name: "f.csv")
            Issue.record("repeated ids are refused")
        } catch {
            #expect(error.report.count == 21)
            #expect(
                error.report.first
                    == "1561 rows repeat the id of an earlier row: is \"id\" a column of unique ids? (choose another with --id)"
            )
            #expect(error.report[1] == "line 3: id \"same\" is already the id of line 2")
            #expect(error.report.last == "and 1542 more problems")
        }
    }

    @Test func theOtherColumnsBecomeFieldsNumbersOnlyWhenTheWholeColumnIs() throws {
        let made = try helper.table("name,id,pop,code,note\nA,a,10,007,\nB,b,2.5,010,x\nC,c,-3e2,1,\n")
        let rows = made.sections[0].rows
        #expect(rows[0].fields == JSONObject([JSONMember("pop", .integer(10)), JSONMember("code", .string("007"))]))
        #expect(
            rows[1].fields
                == JSONObject([
                    JSONMember("pop", .double(2.5)), JSONMember("code", .string("010")),
                    JSONMember("note", .string("x")),
                ]))
        #expect(rows[2].fields["pop"] == JSONValue.number(literal: "-3e2"), "a number keeps its literal")
        #expect(rows[2].fields["pop"]?.doubleValue == -300)
        #expect(rows[0].id == "a" && rows[0].fields["name"] == nil, "the text and id columns are no fields")
    }

    @Test func fieldsAreChosenAndTheirNamesMadeIds() throws {
        let csv = "name,Country Name,Country Name,,pop\nA,x,y,z,1\n"
        let all = try helper.table(csv)
        #expect(all.sections[0].rows[0].fields.keys == ["Country_Name", "Country_Name_2", "column", "pop"])
        let chosen = try helper.table(csv, CSVImportOptions(fields: CSVImportOptions.fieldColumns("pop,2")))
        #expect(
            chosen.sections[0].rows[0].fields
                == JSONObject([JSONMember("pop", .integer(1)), JSONMember("Country_Name", .string("x"))]))
        #expect(try helper.table(csv, CSVImportOptions(fields: .none)).sections[0].rows[0].fields.isEmpty)
        #expect(helper.problems(csv, CSVImportOptions(fields: .columns([.named("nope")]))).count == 1)
    }

    @Test func sortDescendingStyleIndexTitlesAndSectionsWithoutHeader() throws {
        var options = CSVImportOptions(style: .insetGrouped, section: .named("state"), indexTitles: true)
        options.setSort("-pop")
        #expect(options.sort == .named("pop") && options.sortDescending)
        let made = try helper.table("name,state,pop\nA,ny,1\nB,,5\nC,ny,3\nD,,5\nE,,9\n", options)
        #expect(made.style == .insetGrouped)
        #expect(made.sections.map(\.header) == ["ny", nil], "an empty value is a section without header")
        #expect(made.sections.map(\.indexTitle) == ["N", nil])
        #expect(helper.texts(made) == [["C", "A"], ["E", "B", "D"]], "largest first, equal ones in file order")
    }

    @Test func withoutATextColumnTheTextIsTheFirstColumnNotReadForAnythingElse() throws {
        let made = try helper.table("id,name,pop\nr1,Place,3\n")
        #expect(made.sections[0].rows[0].id == "r1")
        #expect(made.sections[0].rows[0].text == "Place")
        #expect(made.sections[0].rows[0].fields == JSONObject([JSONMember("pop", .integer(3))]))
        #expect(try helper.table("id\nr1\n").sections[0].rows[0].text == "r1", "the only column is text and id")
    }

    @Test func progressIsToldEveryHundredThousandRecords() throws {
        let csv = Array(("a\n" + String(repeating: "x\n", count: 250_000)).utf8)
        var fractions: [Double] = []
        let made = try CSVImport.table(csv: csv, name: "f.csv", progress: { fractions.append($0) })
        #expect(made.rowCount == 250_000)
        #expect(fractions.count == 2)
        #expect(fractions == fractions.sorted() && fractions.allSatisfy { $0 > 0.3 && $0 < 0.9 }, "\(fractions)")
    }

    @Test func theDelimiterIsFoundOrGiven() throws {
        #expect(try helper.table("name;pop\n\"a;b\";1\n").sections[0].rows[0].text == "a;b")
        #expect(try helper.table("name\tpop\tx,y\nA\t1\t2\n").sections[0].rows[0].fields["x_y"] == .integer(2))
        #expect(
            try helper.table("name,pop\nA,1\n", name: "f.tsv").sections[0].rows[0].text == "A,1",
            "a .tsv file is tab-separated")
        let given = try helper.table("a|b\nx|y\n", CSVImportOptions(delimiter: CSVDelimiter.named("|")))
        #expect(given.sections[0].rows[0].fields["b"] == .string("y"))
        #expect(
            CSVDelimiter.named("tab") == UInt8(ascii: "\t") && CSVDelimiter.named("\"") == nil
                && CSVDelimiter.named("ab") == nil)
    }

    @Test func jsonIsToldByItsFirstCharacter() {
        #expect(CSVImport.isJSON(Array("\u{FEFF}\n  {\"id\":1}".utf8)))
        #expect(CSVImport.isJSON(Array("[]".utf8)))
        #expect(!CSVImport.isJSON(Array("name,iata\n".utf8)))
    }

    @Test(arguments: [
        ("=1+2", "'=1+2"), ("+1", "'+1"), ("-x", "'-x"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
        ("\r\nx", "'\r\nx"),
        ("'=1", "''=1"), ("''", "'''"), ("'Twas", "'Twas"), ("'", "'"), ("plain", "plain"), ("", ""),
    ])
    func formulasAreWrittenAfterAnApostropheAndReadBack(_ pair: (text: String, cell: String)) {
        #expect(CSVCell.guarded(pair.text) == pair.cell)
        #expect(CSVCell.unguarded(pair.cell) == pair.text)
    }
}
