import Foundation
import Testing
@testable import TableServer

/// The demo tables built into the binary are exactly `examples/*.json`.
@Suite struct DemoTablesTests {
    @Test func embeddedSourcesMatchTheExamplesFolder() throws {
        let folder = packageRoot.appendingPathComponent("examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(DemoTables.sources.map(\.file) == files, "run scripts/embed-demo-tables.sh")
        for source in DemoTables.sources {
            let text = try String(contentsOf: folder.appendingPathComponent(source.file), encoding: .utf8)
            #expect(source.json + "\n" == text, "\(source.file) differs: run scripts/embed-demo-tables.sh")
        }
    }

    @Test func demoTablesDecodeWithDistinctIDs() {
        let ids = DemoTables.all.map(\.id)
        #expect(ids == ["countries", "settings", "us-cities"])
        #expect(DemoTables.all.allSatisfy { $0.rowCount > 0 })
    }
}
