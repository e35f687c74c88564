import Foundation
import JSON
import Testing

/// The demo tables in `examples/` and the files they point to.
@Suite struct ExampleFilesTests {
    private func document(_ name: String) throws -> JSONObject {
        let data = try Data(contentsOf: URL(fileURLWithPath: Folders.examples + "/" + name))
        guard case .object(let table) = try JSONParser().parse(Array(data)) else {
            throw ExampleError.notAnObject(name)
        }
        return table
    }

    private enum ExampleError: Error { case notAnObject(String) }

    private func rows(_ table: JSONObject) -> [JSONObject] {
        guard case .array(let sections)? = table["sections"] else { return [] }
        return sections.flatMap { section -> [JSONObject] in
            guard case .object(let section) = section, case .array(let rows)? = section["rows"] else { return [] }
            return rows.compactMap { if case .object(let row) = $0 { row } else { nil } }
        }
    }

    @Test func countries() throws {
        let table = try document("countries.json")
        #expect(table["id"] == .string("countries"))
        #expect(table["style"] == .string("grouped"))
        let rows = rows(table)
        #expect(
            rows.compactMap { $0["id"] } == ["england", "scotland", "usa", "france", "spain"].map(JSONValue.string))
        for row in rows {
            #expect(row["style"] == .string("subtitle"))
            guard case .string(let image)? = row["image"] else {
                Issue.record("row without image")
                continue
            }
            #expect(image.hasPrefix("/public/flags/"))
            let file = Folders.publicFiles + "/" + image.dropFirst("/public/".count)
            #expect(FileManager.default.fileExists(atPath: file), "missing \(file)")
        }
    }

    @Test func usCities() throws {
        let table = try document("us-cities.json")
        #expect(table["id"] == .string("us-cities"))
        #expect(table["style"] == .string("plain"))
        guard case .array(let sections)? = table["sections"] else {
            Issue.record("no sections")
            return
        }
        #expect((10...15).contains(sections.count))
        for case .object(let section) in sections {
            #expect(section["header"] != nil && section["indexTitle"] != nil)
            guard case .array(let rows)? = section["rows"] else { continue }
            #expect((2...5).contains(rows.count))
        }
        #expect(rows(table).allSatisfy { $0["style"] == .string("value1") && $0["detail"] != nil })
    }

    @Test func flagsAreSVG() throws {
        for name in ["usa", "france", "england", "scotland", "spain"] {
            let text = try String(contentsOfFile: Folders.publicFiles + "/flags/\(name).svg", encoding: .utf8)
            #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(!text.contains("<script"))
        }
    }
}
