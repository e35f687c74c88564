import JSON
import TableModel

/// Draws many rows quickly with `row.mustache`, straight into one byte buffer.
///
/// Walking a Mustache template costs about a microsecond per tag, and a row has
/// dozens of tags. So the template is rendered once per `RowShape` with marker
/// values, and cut at the markers into a plan (`RowStamp`): runs of literal bytes
/// and the places where row values go. Each row of that shape is then written
/// by copying the runs and writing its own values HTML-escaped into the same
/// buffer (`ReservedBytes.appendHTMLEscaped`), in room reserved once for the
/// row: no `String`, dictionary or context per row.
/// The output is byte for byte what rendering each row through the template
/// gives (`FragmentTests`, `RowPlanTests`), with the stock templates and with
/// any `--templates` folder. Custom cells, rows with `fields`, and any shape
/// whose stamp comes out damaged (a template that transforms a value, say) are
/// rendered through the template directly.
///
/// Sections and fragments are rendered the same way one level up
/// (``render(_:rowsOf:at:in:context:)``): their template once with a marker in
/// place of the rows' HTML, and the rows written at the marker.
///
/// One drawer serves one render call; it is not shared between threads.
final class RowDrawer {
    private let templates: TemplateSet
    let defaults: RowDefaults
    /// The last shape looked up and its stamp: rows of a table mostly share one
    /// shape, and comparing two shapes is cheaper than hashing one.
    private var lastShape: RowShape?
    private var lastStamp: RowStamp?
    /// Whether rows are written by their shape's stamp; false renders every
    /// row through the template (`TableRenderer`'s `stampsRows`).
    private let usesStamps: Bool

    init(templates: TemplateSet, defaults: RowDefaults, usesStamps: Bool = true) {
        self.templates = templates
        self.defaults = defaults
        self.usesStamps = usesStamps
    }

    /// Printed by a section or fragment template where the rows go, then replaced by
    /// them. Escaped values never hold `<` or control characters, and the mixed
    /// case is changed by any case transform, so a damaged marker is seen.
    static let rowsMarker = Array("<\u{1}rOWs\u{2}>".utf8)

    /// `name` rendered with the context `makeContext` makes from the HTML of the
    /// rows of `section` (at `sectionIndex`) in `range`, as UTF-8.
    ///
    /// The template is rendered with a marker for the rows, and the rows are
    /// written where the marker is. When the marker does not come out exactly once,
    /// intact, the rows are drawn into a string and the template rendered with it.
    func render(
        _ name: String, rowsOf section: Section, at sectionIndex: Int, in range: Range<Int>,
        context makeContext: (String) -> Any
    ) -> [UInt8] {
        let rendered = Array(templates.render(makeContext(String(decoding: Self.rowsMarker, as: UTF8.self)), name).utf8)
        guard let marker = Self.onlyOccurrence(of: Self.rowsMarker, in: rendered) else {
            return Array(templates.render(makeContext(rowsHTML(of: section, at: sectionIndex, in: range)), name).utf8)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rendered.count + range.count * 512)
        bytes.append(contentsOf: rendered[..<marker.lowerBound])
        appendRows(of: section, at: sectionIndex, in: range, to: &bytes)
        bytes.append(contentsOf: rendered[marker.upperBound...])
        return bytes
    }

    /// The HTML of the rows of `section` (at index `sectionIndex`) in `range`.
    func rowsHTML(of section: Section, at sectionIndex: Int, in range: Range<Int>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count * 512)
        appendRows(of: section, at: sectionIndex, in: range, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the `<tr>` of each row of `section` in `range` to `bytes`.
    func appendRows(of section: Section, at sectionIndex: Int, in range: Range<Int>, to bytes: inout [UInt8]) {
        guard !range.isEmpty else { return }
        var position = range.lowerBound
        section.rows.forEachRow(in: range) { row in
            append(row, at: TableIndexPath(sectionIndex, position), to: &bytes)
            position += 1
        }
    }

    /// Appends the `<tr>` of `row` to `bytes`.
    func append(_ row: Row, at indexPath: TableIndexPath, to bytes: inout [UInt8]) {
        let shape = row.shape(defaults: defaults)
        if shape.style != .custom || !shape.cellTemplate.hasPrefix(TemplateName.customCellPrefix), row.fields.isEmpty,
            let stamp = stamp(for: shape)
        {
            stamp.write(row, shape: shape, at: indexPath, defaults: defaults, to: &bytes)
        } else {
            let values = row.values(at: indexPath, shape: shape, defaults: defaults)
            bytes.append(
                contentsOf: templates.render(RowContext(shape: shape, values: values, fields: row.fields), "row").utf8)
        }
    }

    private func stamp(for shape: RowShape) -> RowStamp? {
        guard usesStamps else { return nil }
        if let lastShape, lastShape == shape { return lastStamp }
        let stamp = templates.stamps.stamp(for: shape) {
            RowStamp(
                rendered: templates.render(
                    RowContext(shape: shape, values: RowStamp.markers, fields: JSONObject()), "row"))
        }
        lastShape = shape
        lastStamp = stamp
        return stamp
    }

    /// The range of the one occurrence of `marker` in `bytes`; nil when it occurs
    /// more than once or not at all.
    static func onlyOccurrence(of marker: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        var found: Range<Int>?
        var start = 0
        while let range = occurrence(of: marker, in: bytes, from: start) {
            guard found == nil else { return nil }
            found = range
            start = range.upperBound
        }
        return found
    }

    private static func occurrence(of marker: [UInt8], in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard let first = marker.first, bytes.count - start >= marker.count else { return nil }
        var index = start
        while index + marker.count <= bytes.count {
            if bytes[index] == first, bytes[index..<index + marker.count].elementsEqual(marker) {
                return index..<index + marker.count
            }
            index += 1
        }
        return nil
    }
}

/// `row.mustache` rendered for one shape, cut at the places where row values go:
/// the plan a row of that shape is written by. A class, so that handing it from
/// the cache (``StampCache``) to the row being written is one retain; immutable,
/// so shared by every render.
final class RowStamp: Sendable {
    /// One step of the plan: copy the literal bytes up to `literalEnd`, then write
    /// the value of `slot` (none for the last step), escaped once more by the
    /// template when `escapedAgain` (printed with `{{name}}` rather than `{{{name}}}`).
    struct Step {
        let literalEnd: Int
        let slot: RowSlot?
        let escapedAgain: Bool
    }

    /// Every byte the template wrote around the values, in order, in one buffer:
    /// writing a row retains nothing but it and `steps`.
    let literals: [UInt8]
    let steps: [Step]
    /// The slots the plan prints, each with the most bytes it writes for one byte
    /// of the slot's value (``StampValues/count(of:)``), summed over its steps.
    let slotWeights: [(slot: RowSlot, weight: Int)]

    /// Values that render as `\u{1}sS<slot>&\u{2}`: control characters that no
    /// template writes, mixed-case letters that a case transform would change, and
    /// an `&` that swift-mustache's own escaping (`{{name}}`) turns into `&amp;`, so
    /// that the plan knows which values the template escapes once more.
    static let markers: RowValues = {
        var values = RowValues()
        func marker(_ slot: RowSlot) -> String { "\u{1}sS\(slot.rawValue)&\u{2}" }
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
        var literals: [UInt8] = []
        var steps: [Step] = []
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
                while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9"), number < 100
                {
                    number = number * 10 + Int(bytes[end] - UInt8(ascii: "0"))
                    end += 1
                }
                guard end > index + 3, let slot = RowSlot(rawValue: number) else { return nil }
                // `&` as given, or `&amp;` when the template escaped the value itself.
                let escapedAgain: Bool
                if bytes[end...].starts(with: Self.ampersand) {
                    escapedAgain = false
                    end += Self.ampersand.count
                } else if bytes[end...].starts(with: Self.escapedAmpersand) {
                    escapedAgain = true
                    end += Self.escapedAmpersand.count
                } else {
                    return nil
                }
                guard end < bytes.count, bytes[end] == 0x02 else { return nil }
                literals.append(contentsOf: bytes[start..<index])
                steps.append(Step(literalEnd: literals.count, slot: slot, escapedAgain: escapedAgain))
                index = end + 1
                start = index
            default:
                index += 1
            }
        }
        literals.append(contentsOf: bytes[start...])
        steps.append(Step(literalEnd: literals.count, slot: nil, escapedAgain: false))
        self.literals = literals
        self.steps = steps
        var weights = Array(repeating: 0, count: RowSlot.allCases.count)
        for step in steps {
            guard let slot = step.slot else { continue }
            weights[slot.rawValue] +=
                step.escapedAgain ? HTMLEscaping.maximumEscapedAgainCount(1) : HTMLEscaping.maximumEscapedCount(1)
        }
        slotWeights = RowSlot.allCases.compactMap { weights[$0.rawValue] > 0 ? ($0, weights[$0.rawValue]) : nil }
    }

    /// Writes `row` (of shape `shape`, at `indexPath`) by the plan: what
    /// ``RowValues`` would hold for each slot, escaped straight into `bytes`, in
    /// one step of room reserved for the most the row can take (``ReservedBytes``).
    func write(
        _ row: Row, shape: RowShape, at indexPath: TableIndexPath, defaults: RowDefaults, to bytes: inout [UInt8]
    ) {
        let values = StampValues(row, shape: shape, at: indexPath, defaults: defaults)
        var maximumCount = literals.count
        for (slot, weight) in slotWeights {
            maximumCount += weight * values.count(of: slot)
        }
        bytes.append(atMost: maximumCount) { output in
            literals.withUnsafeBufferPointer { literals in
                var literalStart = 0
                for step in steps {
                    output.append(UnsafeBufferPointer(rebasing: literals[literalStart..<step.literalEnd]))
                    literalStart = step.literalEnd
                    guard let slot = step.slot else { continue }
                    guard !step.escapedAgain else {
                        var value: [UInt8] = []
                        value.append(atMost: HTMLEscaping.maximumEscapedCount(values.count(of: slot))) {
                            values.write(slot, to: &$0)
                        }
                        output.appendEscapedAgain(value)
                        continue
                    }
                    values.write(slot, to: &output)
                }
            }
        }
    }

    private static let ampersand = Array("&".utf8)
    private static let escapedAmpersand = Array("&amp;".utf8)
}
