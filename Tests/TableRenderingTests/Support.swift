import Foundation
import TableModel
import TableRendering

/// The package's own folders, found from this file.
enum Folders {
    static let package = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let templates = package.appendingPathComponent("Templates").path
    static let publicFiles = package.appendingPathComponent("Public").path
    static let examples = package.appendingPathComponent("examples").path
}

/// A renderer over the real `Templates/` folder.
func makeRenderer() throws -> TableRenderer {
    try TableRenderer(templatesDirectory: Folders.templates)
}

/// One start tag found in rendered HTML.
struct StartTag {
    let name: String
    let attributes: [String: String]
    /// Attribute names in the order written.
    let attributeNames: [String]

    func has(_ className: String) -> Bool {
        (attributes["class"] ?? "").split(separator: " ").contains { $0 == className }
    }
}

/// A deliberately strict reader of the markup the templates write: every
/// attribute double-quoted (or bare, without a value), no `>` inside a tag.
/// Anything else fails the reading, so an injected quote shows up as a failure.
enum HTMLProbe {
    static func startTags(_ name: String, in html: String) -> [StartTag] {
        var tags: [StartTag] = []
        var rest = html[...]
        while let open = rest.range(of: "<" + name) {
            let after = rest[open.upperBound...]
            guard let next = after.first, next == " " || next == ">" else {
                rest = after
                continue
            }
            guard let close = after.firstIndex(of: ">") else { break }
            if let tag = parse(name: name, attributes: after[..<close]) {
                tags.append(tag)
            } else {
                tags.append(StartTag(name: "BROKEN:" + name, attributes: [:], attributeNames: []))
            }
            rest = after[after.index(after: close)...]
        }
        return tags
    }

    private static func parse(name: String, attributes text: Substring) -> StartTag? {
        var attributes: [String: String] = [:]
        var names: [String] = []
        var rest = text.drop { $0 == " " }
        while !rest.isEmpty {
            let nameEnd = rest.firstIndex { $0 == "=" || $0 == " " } ?? rest.endIndex
            let attributeName = String(rest[..<nameEnd])
            guard !attributeName.isEmpty, attributeName.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
            guard attributes[attributeName] == nil else { return nil }
            names.append(attributeName)
            rest = rest[nameEnd...]
            if rest.first == "=" {
                rest = rest.dropFirst()
                guard rest.first == "\"" else { return nil }
                rest = rest.dropFirst()
                guard let quote = rest.firstIndex(of: "\"") else { return nil }
                attributes[attributeName] = String(rest[..<quote])
                rest = rest[rest.index(after: quote)...]
                guard rest.isEmpty || rest.first == " " else { return nil }
            } else {
                attributes[attributeName] = ""
            }
            rest = rest.drop { $0 == " " }
        }
        return StartTag(name: name, attributes: attributes, attributeNames: names)
    }

    /// The text between `<tag class="className">` and the next `</tag>`, unescaped.
    static func text(ofClass className: String, tag: String = "span", in html: String) -> [String] {
        var texts: [String] = []
        var rest = html[...]
        let open = "<\(tag) class=\"\(className)\">"
        while let start = rest.range(of: open) {
            let after = rest[start.upperBound...]
            guard let end = after.range(of: "</\(tag)>") else { break }
            texts.append(unescape(String(after[..<end.lowerBound])))
            rest = after[end.upperBound...]
        }
        return texts
    }

    /// Undoes the five references the renderer writes, scalar by scalar (a
    /// `String` search would not see `&quot;` followed by a combining mark).
    static func unescape(_ text: String) -> String {
        let entities: [(String, Unicode.Scalar)] = [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&"),
        ]
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        outer: while index < scalars.count {
            if scalars[index] == "&" {
                for (entity, scalar) in entities {
                    let pattern = Array(entity.unicodeScalars)
                    if scalars[index...].starts(with: pattern) {
                        result.append(scalar)
                        index += pattern.count
                        continue outer
                    }
                }
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }
}

/// Small tables for the tests.
enum Fixtures {
    static func table(
        style: TableStyle = .plain, rows: [Row], header: String? = "Header", rowHeight: Double = 44,
        allowsSelection: Bool = true
    ) -> Table {
        Table(
            id: "t", title: "Test", style: style, rowHeight: rowHeight, allowsSelection: allowsSelection,
            version: 7, sections: [Section(id: "s0", header: header, rows: rows)])
    }

    /// The `<tr class="cell">` tags of `html`.
    static func cells(_ html: String) -> [StartTag] {
        HTMLProbe.startTags("tr", in: html).filter { $0.has("cell") }
    }
}
