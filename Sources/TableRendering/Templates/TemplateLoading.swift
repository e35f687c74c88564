import Foundation
import Mustache

/// Why the templates folder could not be loaded.
public enum TemplateLoadingError: Error, Equatable, CustomStringConvertible {
    /// The folder does not exist or cannot be listed.
    case unreadableDirectory(String)
    /// A template the renderer needs is not in the folder.
    case missingTemplate(name: String, directory: String)
    /// A file could not be read as UTF-8 text.
    case unreadableFile(String)
    /// A template does not parse; line and column are 1-based.
    case syntax(file: String, line: Int, column: Int, reason: String)

    public var description: String {
        switch self {
        case .unreadableDirectory(let directory):
            "cannot read the templates folder \(directory)"
        case .missingTemplate(let name, let directory):
            "missing template \(directory)/\(name).mustache"
        case .unreadableFile(let file):
            "cannot read template \(file)"
        case .syntax(let file, let line, let column, let reason):
            "\(file):\(line):\(column): template syntax error: \(reason)"
        }
    }
}

/// The templates the renderer calls by name. Cell templates for custom rows
/// (`cells/NAME.mustache`) are optional and found by the row's `template`.
enum TemplateName {
    static let required = [
        "page", "index", "error", "table", "section", "section-page", "rows", "row", "accessory", "more",
        "cell-default", "cell-subtitle", "cell-value1", "cell-value2", "row-detail",
    ]
    /// Folder of custom cell templates, as a name prefix.
    static let customCellPrefix = "cells/"
}

/// Every `*.mustache` file below a folder, parsed once.
struct TemplateSet: Sendable {
    let library: MustacheLibrary
    /// Names of the custom cell templates, without the `cells/` prefix.
    let customCells: Set<String>
    /// The row plans made from these templates so far.
    let stamps = StampCache()

    init(directory: String) throws(TemplateLoadingError) {
        let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let paths: [String]
        do {
            // Resolved first: a folder reached through a symbolic link is listed as empty.
            let resolved = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
            paths = try FileManager.default.subpathsOfDirectory(atPath: resolved)
        } catch {
            throw .unreadableDirectory(root)
        }
        var library = MustacheLibrary()
        var names: Set<String> = []
        var customCells: Set<String> = []
        for path in paths.sorted() where path.hasSuffix(".mustache") {
            let file = root + "/" + path
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw .unreadableFile(file)
            }
            let name = String(path.dropLast(".mustache".count))
            do {
                library.register(try MustacheTemplate(string: text), named: name)
            } catch let error as MustacheTemplate.ParserError {
                throw .syntax(
                    file: file, line: error.context.lineNumber, column: error.context.columnNumber,
                    reason: String(describing: error.error))
            } catch {
                throw .syntax(file: file, line: 1, column: 1, reason: String(describing: error))
            }
            names.insert(name)
            if name.hasPrefix(TemplateName.customCellPrefix) {
                customCells.insert(String(name.dropFirst(TemplateName.customCellPrefix.count)))
            }
        }
        if let missing = TemplateName.required.first(where: { !names.contains($0) }) {
            throw .missingTemplate(name: missing, directory: root)
        }
        self.library = library
        self.customCells = customCells
    }

    /// The template rendered with `context`; templates named here were checked
    /// to exist at start-up.
    func render(_ context: Any, _ name: String) -> String {
        library.render(context, withTemplate: name) ?? ""
    }
}
