import Foundation
import JSON
import Mustache
import TableModel
import TableRendering
import Testing

/// Rows are written from a plan made once per shape (`RowStamp`) and spliced into
/// their section at a marker; these tests hold that fast path to swift-mustache's
/// own rendering of the same templates, byte for byte, for the stock templates and
/// for a `--templates` folder that prints values its own way, with hostile text.
@Suite struct RowPlanTests {
    /// Text that must come out escaped wherever it lands, including look-alikes of
    /// the markers the fast path cuts its plans at.
    static let hostile = [
        #"<script>alert('x')</script>"#, #"a & b "quoted" 'single'"#, "\"\u{301} combining quote",
        "\u{1}sS3&\u{2}", "\u{1}sS3\u{2}", "<\u{1}rOWs\u{2}>", "<\u{1}sections\u{2}>", "&amp; already", "Zoë 🇫🇷 ✓",
        "", "   ",
    ]

    /// Rows of many shapes, every text hostile.
    static func hostileRows() -> [Row] {
        var rows: [Row] = []
        for (index, text) in hostile.enumerated() {
            for style in [CellStyle.default, .subtitle, .value1, .value2] {
                let number = rows.count
                rows.append(
                    Row(
                        id: "id-\(number)-\(text)", style: style, text: text,
                        detail: number % 3 == 0 ? nil : hostile[(index + 1) % hostile.count],
                        image: number % 4 == 0 ? "/i.svg?a=1&b=\"2\"" : nil,
                        accessory: Accessory.allCases[number % Accessory.allCases.count],
                        accessoryView: number % 5 == 0 ? .badge(text) : number % 7 == 0 ? .button(title: text) : nil,
                        selectionStyle: number % 2 == 0 ? .default : .none, canEdit: number % 3 != 1,
                        deleteTitle: hostile[(index + 2) % hostile.count], indentationLevel: number % 3,
                        height: number % 6 == 0 ? 61.5 : nil, selected: number % 5 == 1,
                        link: number % 2 == 0 ? "/l/\(number)?q=<x>" : "javascript:alert(1)",
                        detailLink: number % 3 == 0 ? "https://example.com/'\(number)'" : nil))
            }
        }
        return rows
    }

    /// A copy of the real templates, with `overrides` (name → text) written over it.
    static func templates(_ overrides: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("row-plan-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Folders.templates).resolvingSymlinksInPath(), to: folder)
        for (name, text) in overrides {
            try text.write(to: folder.appendingPathComponent("\(name).mustache"), atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// The rows of section 0 rendered one by one through swift-mustache (`rowThroughTemplate`).
    static func singleRows(_ renderer: TableRenderer, _ table: Table) -> String {
        (0..<table.sections[0].rows.count).map { renderer.rowThroughTemplate(table, at: TableIndexPath(0, $0)) }
            .joined()
    }

    /// The rows of section 0 drawn one by one, as a live update draws them (`row(_:at:)`).
    static func drawnRows(_ renderer: TableRenderer, _ table: Table) -> String {
        (0..<table.sections[0].rows.count).map { renderer.row(table, at: TableIndexPath(0, $0)) }.joined()
    }

    /// `section.mustache` of `folder` rendered by swift-mustache itself, around `rows`.
    static func referenceSection(folder: URL, _ table: Table, rows: String) throws -> String {
        var library = MustacheLibrary()
        for name in ["section", "more"] {
            let text = try String(contentsOf: folder.appendingPathComponent("\(name).mustache"), encoding: .utf8)
            library.register(try MustacheTemplate(string: text), named: name)
        }
        let section = table.sections[0]
        let context: [String: Any] = [
            "index": 0, "hasID": section.id != nil, "id": escape(section.id ?? ""),
            "hasHeader": section.header != nil, "header": escape(section.header ?? ""),
            "hasFooter": section.footer != nil, "footer": escape(section.footer ?? ""), "rows": rows, "more": false,
        ]
        return try #require(library.render(context, withTemplate: "section"))
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    static func table(_ rows: [Row], allowsSelection: Bool = true) -> Table {
        Table(
            id: "plan", title: hostile[0], allowsSelection: allowsSelection,
            sections: [Section(id: hostile[1], header: hostile[2], footer: hostile[3], rows: rows)])
    }

    @Test(arguments: [true, false])
    func stockTemplatesWriteWhatMustacheRenders(allowsSelection: Bool) throws {
        let renderer = try makeRenderer()
        let table = Self.table(Self.hostileRows(), allowsSelection: allowsSelection)
        let single = Self.singleRows(renderer, table)
        #expect(renderer.rows(table, section: 0, range: 0..<table.rowCount) == single)
        #expect(Self.drawnRows(renderer, table) == single)
        let folder = URL(fileURLWithPath: Folders.templates)
        #expect(renderer.section(table, at: 0) == (try Self.referenceSection(folder: folder, table, rows: single)))
        #expect(renderer.page(table).contains(single))
        // Nothing hostile survives unescaped.
        #expect(!single.contains("<script") && !single.contains("<\u{1}") && !single.contains("javascript:"))
    }

    /// A row template of its own: values in another order, some printed with
    /// `{{name}}` (swift-mustache escapes them once more), some inside sections
    /// (`{{#detail}}{{.}}{{/detail}}`), a condition on an emptiness the shape keeps.
    @Test func customRowTemplateWritesWhatMustacheRenders() throws {
        let folder = try Self.templates([
            "row": """
            <tr data-row="{{row}}" title="{{text}}" class="{{{stateClasses}}}"{{#hasID}} id="x{{{id}}}"{{/hasID}}>\
            <td>{{{text}}}|{{#detail}}<i>{{.}}</i>{{/detail}}{{^detail}}none{{/detail}}|{{#text}}T{{/text}}\
            {{{deleteTitle}}}{{deleteTitle}}|{{{accessoryTitle}}}{{accessoryTitle}}|{{{cssStyle}}}|{{{link}}}{{image}}\
            {{>*cellTemplate}}{{>accessory}}</td></tr>

            """,
            "cell-subtitle": #"<b>{{text}}</b><em>{{{detail}}}</em>"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let renderer = try TableRenderer(templatesDirectory: folder.path)
        let table = Self.table(Self.hostileRows())
        let single = Self.singleRows(renderer, table)
        #expect(single.contains("&amp;lt;script&amp;gt;"))  // `{{text}}`: escaped twice, as Mustache does
        #expect(renderer.rows(table, section: 0, range: 0..<table.rowCount) == single)
        #expect(Self.drawnRows(renderer, table) == single)
        #expect(renderer.section(table, at: 0) == (try Self.referenceSection(folder: folder, table, rows: single)))
    }

    /// A section template that prints its rows twice, or transforms them, cannot have
    /// them written at one marker: it is rendered with their HTML instead, still as
    /// swift-mustache renders it.
    @Test(arguments: [
        "<tbody>{{{rows}}}<!-- again -->{{{rows}}}</tbody>\n",
        "<tbody>{{#reversed(rows)}}{{.}}{{/reversed(rows)}}</tbody>\n",
        "<tbody data-header=\"{{{header}}}\">{{rows}}</tbody>\n",
        "<tbody>{{^rows}}empty{{/rows}}{{{rows}}}{{#hasFooter}}<tfoot>{{{footer}}}</tfoot>{{/hasFooter}}</tbody>\n",
    ])
    func customSectionTemplateRendersWhatMustacheRenders(section: String) throws {
        let folder = try Self.templates(["section": section])
        defer { try? FileManager.default.removeItem(at: folder) }
        let renderer = try TableRenderer(templatesDirectory: folder.path)
        for rows in [Self.hostileRows(), []] {
            let table = Self.table(rows)
            let expected = try Self.referenceSection(folder: folder, table, rows: Self.singleRows(renderer, table))
            #expect(renderer.section(table, at: 0) == expected)
            #expect(renderer.page(table).contains(expected))
        }
    }

    /// A row whose values are all quotes or ampersands, in a template that prints
    /// them escaped once more (`{{name}}`) and nothing else: each value takes ten
    /// bytes a byte, the most the row's room is sized for.
    @Test func valuesEscapedTwiceTakeTheirMostRoom() throws {
        let folder = try Self.templates(["row": "{{text}}{{deleteTitle}}{{id}}{{detail}}\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let renderer = try TableRenderer(templatesDirectory: folder.path)
        let rows = ["\"", "&", "'", "<>"].map { unit in
            let text = String(repeating: unit, count: 300)
            return Row(id: text, style: .subtitle, text: text, detail: text, deleteTitle: text)
        }
        let table = Self.table(rows)
        let single = Self.singleRows(renderer, table)
        #expect(single.contains(String(repeating: "&amp;quot;", count: 300)))
        #expect(renderer.rows(table, section: 0, range: 0..<table.rowCount) == single)
        #expect(Self.drawnRows(renderer, table) == single)
    }
}
