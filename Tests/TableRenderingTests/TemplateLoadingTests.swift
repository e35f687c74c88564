import Foundation
import TableModel
import TableRendering
import Testing

@Suite struct TemplateLoadingTests {
    /// A copy of the real templates in a fresh folder, for breaking.
    private func copyOfTemplates() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("templates-\(UInt64.random(in: 0...UInt64.max))")
        let source = URL(fileURLWithPath: Folders.templates).resolvingSymlinksInPath()
        try FileManager.default.copyItem(at: source, to: folder)
        return folder
    }

    @Test func missingFolder() {
        #expect(throws: TemplateLoadingError.unreadableDirectory("/nonexistent/templates")) {
            try TableRenderer(templatesDirectory: "/nonexistent/templates")
        }
    }

    @Test func missingTemplateIsNamed() throws {
        let folder = try copyOfTemplates()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("row.mustache"))
        let error = try #require(throws: TemplateLoadingError.self) {
            try TableRenderer(templatesDirectory: folder.path)
        }
        #expect(error == .missingTemplate(name: "row", directory: folder.path))
        #expect(error.description == "missing template \(folder.path)/row.mustache")
    }

    @Test func syntaxErrorNamesFileAndLine() throws {
        let folder = try copyOfTemplates()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cells/broken.mustache")
        try "<p>\n{{#fields.x}}\n<b>never closed</b>\n".write(to: file, atomically: true, encoding: .utf8)
        let error = try #require(throws: TemplateLoadingError.self) {
            try TableRenderer(templatesDirectory: folder.path)
        }
        guard case .syntax(let path, let line, _, _) = error else {
            Issue.record("expected a syntax error, got \(error)")
            return
        }
        #expect(path == file.path)
        #expect(line >= 2)
        #expect(error.description.hasPrefix("\(file.path):\(line):"))
    }

    @Test func customCellTemplatesAreFoundInTheirFolder() throws {
        let folder = try copyOfTemplates()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"<b class="mine">{{{fields.label}}}</b>"#.write(
            to: folder.appendingPathComponent("cells/mine.mustache"), atomically: true, encoding: .utf8)
        let renderer = try TableRenderer(templatesDirectory: folder.path + "/")
        let table = Fixtures.table(rows: [Row(style: .custom, text: "t", template: "mine")])
        #expect(
            renderer.row(table, at: TableIndexPath(0, 0)).contains(#"<td class="cell-body"><b class="mine"></b></td>"#))
    }

    /// Rows are drawn in bulk from one rendering per shape; a template that
    /// transforms a value must still see each row's own value.
    @Test func templatesMayTransformValues() throws {
        let folder = try copyOfTemplates()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"<span class="text">{{uppercased(text)}}</span>"#.write(
            to: folder.appendingPathComponent("cell-default.mustache"), atomically: true, encoding: .utf8)
        let renderer = try TableRenderer(templatesDirectory: folder.path)
        let table = Fixtures.table(rows: [Row(text: "first"), Row(text: "second")])
        let html = renderer.rows(table, section: 0, range: 0..<2)
        #expect(HTMLProbe.text(ofClass: "text", in: html) == ["FIRST", "SECOND"])
        #expect(html == renderer.row(table, at: TableIndexPath(0, 0)) + renderer.row(table, at: TableIndexPath(0, 1)))
    }
}
