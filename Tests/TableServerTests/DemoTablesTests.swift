import Foundation
import TableServerTesting
import Testing
@testable import TableServer

/// The demo tables built into the binary are exactly `examples/*.json`, and
/// the OpenAPI document served is exactly `OpenAPI/openapi.json`.
@Suite struct DemoTablesTests {
    @Test func embeddedSourcesMatchTheExamplesFolder() throws {
        let folder = packageRoot.appendingPathComponent("examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(DemoTables.sources.map(\.file) == files)
        for source in DemoTables.sources {
            let text = try String(contentsOf: folder.appendingPathComponent(source.file), encoding: .utf8)
            #expect(source.json == text, "\(source.file) differs from the one built in")
        }
    }

    @Test func openAPIDocumentIsTheFileByteForByte() throws {
        let file = try Data(contentsOf: packageRoot.appendingPathComponent(OpenAPIDocument.path))
        #expect(OpenAPIDocument.bytes == Array(file))
    }

    @Test func demoTablesDecodeWithDistinctIDs() {
        let ids = DemoTables.all.map(\.id)
        #expect(ids == ["countries", "settings", "us-cities"])
        #expect(DemoTables.all.allSatisfy { $0.rowCount > 0 })
    }
}
