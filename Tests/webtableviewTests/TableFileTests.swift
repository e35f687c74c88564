import Foundation
import TableModel
import Testing
@testable import webtableview

/// A file `serve` or `import` cannot read is named for why: not there, a
/// folder, or not readable by this user.
@Suite struct TableFileTests {
    @Test func aFileThatCannotBeReadIsNamedForWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-unreadable-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.csv").path
        for (path, message) in [
            (missing, "not found: no such file"), (folder.path, "is a folder, not a file of tables"),
        ] {
            guard case .failure(let error) = TableFile.load(path, limits: ModelLimits()) else {
                Issue.record("\(path) loaded")
                continue
            }
            #expect(error.messages == [message])
        }
    }
}
