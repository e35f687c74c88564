import Foundation
import TableModel
import Testing
@testable import webtableview

/// `serve FILE…` takes `import`'s CSV options (one option group for both),
/// applies them to every CSV file it reads, and refuses `--table-id` for more
/// than one file.
@Suite struct CSVColumnOptionsTests {
    /// Two CSV files of airports and a JSON table, in a folder of their own.
    func withFiles(_ body: (_ first: String, _ second: String, _ json: String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-columns-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("north.csv")
        let second = folder.appendingPathComponent("south.csv")
        let json = folder.appendingPathComponent("one.json")
        try Data("name,iata,country\nOslo,OSL,NO\nTromsø,TOS,NO\nHelsinki,HEL,FI\n".utf8).write(to: first)
        try Data("name,iata,country\nMadrid,MAD,ES\nLisbon,LIS,PT\n".utf8).write(to: second)
        try Data(#"{"id":"one","sections":[{"rows":[{"id":"x","text":"1"}]}]}"#.utf8).write(to: json)
        try body(first.path, second.path, json.path)
    }

    /// What the command line `arguments` is refused with; nil when it is taken.
    func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try WebTableViewCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return WebTableViewCommand.message(for: error)
        }
    }

    @Test func serveAppliesTheOptionsToEveryCSVFile() throws {
        try withFiles { first, second, json in
            let serve = try Serve.parse([first, "--id", "iata", "--section", "country", second, "--data", json])
            let tables = try serve.loadTables(limits: ModelLimits())
            #expect(tables.map(\.id) == ["north", "south", "one"])
            #expect(tables[0].sections.map(\.header) == ["NO", "FI"])
            #expect(tables[0].indexPath(ofRow: "HEL") == TableIndexPath(1, 0))
            #expect(tables[1].sections.map(\.header) == ["ES", "PT"])
            #expect(tables[1].row(at: TableIndexPath(1, 0))?.id == "LIS")
            #expect(tables[1].row(at: TableIndexPath(1, 0))?.text == "Lisbon")
            #expect(tables[2].row(at: TableIndexPath(0, 0))?.id == "x", "a JSON file takes none")
        }
    }

    @Test func serveWithoutOptionsReadsACSVFileWithImportsDefaults() throws {
        try withFiles { first, _, _ in
            let table = try #require(try Serve.parse([first]).loadTables(limits: ModelLimits()).first)
            #expect(table.sections.count == 1)
            #expect(table.row(at: TableIndexPath(0, 0))?.id == nil)
            #expect(table.row(at: TableIndexPath(0, 0))?.fields.keys == ["iata", "country"])
        }
    }

    @Test func tableIDNamesTheTableOfOneFileOnly() throws {
        try withFiles { first, second, json in
            let one = try Serve.parse([first, "--table-id", "airports", "--sort", "-name"])
            let table = try #require(try one.loadTables(limits: ModelLimits()).first)
            #expect(table.id == "airports")
            #expect(table.sections[0].rows.map(\.text) == ["Tromsø", "Oslo", "Helsinki"])
            #expect(
                refusal(["serve", first, second, "--table-id", "airports"])?.contains(
                    "--table-id airports names one table, but 2 files are given") == true)
            #expect(
                refusal(["serve", first, "--data", json, "--table-id", "x"])?.contains(
                    "--table-id x names one table, but 2 files are given") == true)
        }
    }

    @Test func bothCommandsCheckTheOptionsAlike() {
        for command in [["serve", "a.csv"], ["import", "a.csv"]] {
            let cases = [
                (["--fields", "a", "--no-fields"], "--fields and --no-fields exclude each other"),
                (["--style", "fancy"], "--style must be one of plain, grouped, insetGrouped"),
                (["--delimiter", "ab"], "--delimiter must be one character"),
            ]
            for (options, message) in cases {
                #expect(refusal(command + options)?.contains(message) == true, "\(command + options)")
            }
        }
    }
}
