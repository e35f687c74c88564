import Foundation
import JSON
import MicroHTTPTesting
import TableModel
import TableServerTesting
import Testing

/// The OpenAPI document agrees with the model and with docs/FORMAT.md: its
/// enums are the Swift enums, and each field of Table, Section and Row has the
/// description FORMAT.md gives it.
@Suite struct OpenAPIFormatTests {
    func schemas() throws -> JSONValue {
        let document = try TestClient(router: try makeServer().router).request(.GET, "/api/openapi.json").json
        return try #require(document["components"]?["schemas"])
    }

    func strings(_ value: JSONValue?) -> [String]? {
        value?.array?.compactMap(\.string)
    }

    @Test func enumsAreTheSwiftEnums() throws {
        let schemas = try schemas()
        let row = schemas["Row"]?["properties"]
        #expect(strings(schemas["TableStyle"]?["enum"]) == TableStyle.allCases.map(\.rawValue))
        #expect(strings(schemas["Animation"]?["enum"]) == RowAnimation.allCases.map(\.rawValue))
        #expect(strings(row?["style"]?["enum"]) == CellStyle.allCases.map(\.rawValue))
        #expect(strings(row?["accessory"]?["enum"]) == Accessory.allCases.map(\.rawValue))
        // AccessoryView is a oneOf discriminated by `type`: one schema per kind,
        // each holding `type` to its kind.
        if case .object(let mapping) = schemas["AccessoryView"]?["discriminator"]?["mapping"] {
            #expect(Set(mapping.keys) == Set(AccessoryView.Kind.allCases.map(\.rawValue)))
            for member in mapping.members {
                let name = member.value.string?.split(separator: "/").last.map(String.init) ?? ""
                #expect(strings(schemas[name]?["properties"]?["type"]?["enum"]) == [member.key], "\(name)")
            }
        } else {
            Issue.record("AccessoryView has no discriminator mapping")
        }
        #expect(strings(row?["selectionStyle"]?["enum"]) == SelectionStyle.allCases.map(\.rawValue))
        #expect(strings(row?["editingStyle"]?["enum"]) == EditingStyle.allCases.map(\.rawValue))
    }

    /// The field tables of docs/FORMAT.md (under "Table", "Section" and "Row"):
    /// for each heading, field name → the last column ("what it does, what it looks like").
    func formatTables() throws -> [String: [String: String]] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/FORMAT.md"), encoding: .utf8)
        var tables: [String: [String: String]] = [:]
        var heading = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { heading = String(line.dropFirst(3)) }
            guard ["Table", "Section", "Row"].contains(heading), line.hasPrefix("| `") else { continue }
            let cells = line.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 5 else {
                Issue.record("FORMAT.md, \(heading): a field row without 5 columns: \(line)")
                continue
            }
            tables[heading, default: [:]][cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[4]
        }
        return tables
    }

    @Test func fieldDescriptionsAreFormatMD() throws {
        let schemas = try schemas()
        let tables = try formatTables()
        for (heading, schema) in [("Table", "TableSnapshot"), ("Section", "Section"), ("Row", "Row")] {
            guard case .object(let properties) = schemas[schema]?["properties"] else {
                Issue.record("no properties in \(schema)")
                continue
            }
            let documented = tables[heading] ?? [:]
            #expect(Set(properties.keys) == Set(documented.keys), "\(schema): fields in the schema and in FORMAT.md")
            for field in properties.keys {
                #expect(properties[field]?["description"]?.string == documented[field], "\(schema).\(field)")
            }
        }
    }
}
