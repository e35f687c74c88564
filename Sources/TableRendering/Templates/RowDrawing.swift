import JSON
import TableModel

/// Draws many rows quickly with `row.mustache`.
///
/// Walking a Mustache template costs about a microsecond per tag, and a row has
/// dozens of tags. So the template is rendered once per `RowShape` with marker
/// values (`RowStamp`), and each row of that shape is then written by copying the
/// stamp's text and its own escaped values. The output is the same as rendering
/// each row through the template. Custom cells, rows with `fields`, and any shape
/// whose stamp comes out damaged (a template that transforms a value, say) are
/// rendered through the template directly.
///
/// One drawer serves one render call; it is not shared between threads.
final class RowDrawer {
    private let templates: TemplateSet
    let defaults: RowDefaults
    /// Stamps by shape; a nil stamp marks a shape that must be rendered directly.
    private var stamps: [RowShape: RowStamp?] = [:]

    init(templates: TemplateSet, defaults: RowDefaults) {
        self.templates = templates
        self.defaults = defaults
    }

    /// The HTML of the rows of `section` (at index `sectionIndex`) in `range`.
    func rows(of section: Section, at sectionIndex: Int, in range: Range<Int>) -> String {
        var html = ""
        html.reserveCapacity(range.count * 600)
        for position in range {
            append(section.rows[position], at: TableIndexPath(sectionIndex, position), to: &html)
        }
        return html
    }

    /// Appends the `<tr>` of `row` to `html`.
    func append(_ row: Row, at indexPath: TableIndexPath, to html: inout String) {
        let (shape, values) = row.rendering(at: indexPath, defaults: defaults)
        if row.fields.isEmpty, !shape.cellTemplate.hasPrefix(TemplateName.customCellPrefix),
            let stamp = stamp(for: shape)
        {
            stamp.write(values, to: &html)
        } else {
            html += templates.render(RowContext(shape: shape, values: values, fields: row.fields), "row")
        }
    }

    private func stamp(for shape: RowShape) -> RowStamp? {
        if let known = stamps[shape] { return known }
        let stamp = RowStamp(
            rendered: templates.render(RowContext(shape: shape, values: RowStamp.markers, fields: JSONObject()), "row"))
        stamps[shape] = .some(stamp)
        return stamp
    }
}

/// `row.mustache` rendered for one shape, cut at the places where row values go.
struct RowStamp {
    enum Piece {
        case text(String)
        case value(RowSlot)
    }

    let pieces: [Piece]

    /// Values that render as `\u{1}sS<slot>\u{2}`: control characters that no
    /// template writes, and mixed-case letters that a case transform would change.
    static let markers: RowValues = {
        var values = RowValues()
        func marker(_ slot: RowSlot) -> String { "\u{1}sS\(slot.rawValue)\u{2}" }
        values.section = marker(.section)
        values.row = marker(.row)
        values.id = marker(.id)
        values.text = marker(.text)
        values.detail = marker(.detail)
        values.image = marker(.image)
        values.link = marker(.link)
        values.detailLink = marker(.detailLink)
        values.deleteTitle = marker(.deleteTitle)
        values.cssStyle = marker(.cssStyle)
        values.accessoryTitle = marker(.accessoryTitle)
        return values
    }()

    /// Nil when `rendered` holds a marker that is not intact.
    init?(rendered: String) {
        let bytes = Array(rendered.utf8)
        var pieces: [Piece] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x02:
                return nil
            case 0x01:
                guard index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "s"),
                    bytes[index + 2] == UInt8(ascii: "S")
                else { return nil }
                var end = index + 3
                var number = 0
                while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9"), number < 100 {
                    number = number * 10 + Int(bytes[end] - UInt8(ascii: "0"))
                    end += 1
                }
                guard end > index + 3, end < bytes.count, bytes[end] == 0x02, let slot = RowSlot(rawValue: number)
                else { return nil }
                if start < index { pieces.append(.text(String(decoding: bytes[start..<index], as: UTF8.self))) }
                pieces.append(.value(slot))
                index = end + 1
                start = index
            default:
                index += 1
            }
        }
        if start < bytes.count { pieces.append(.text(String(decoding: bytes[start...], as: UTF8.self))) }
        self.pieces = pieces
    }

    func write(_ values: RowValues, to html: inout String) {
        for piece in pieces {
            switch piece {
            case .text(let text): html += text
            case .value(let slot): html += values[slot]
            }
        }
    }
}
