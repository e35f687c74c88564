import JSON
import TableModel

/// One row's values as a ``RowStamp`` writes them, read from the row once: what
/// ``RowValues`` holds for each slot, before escaping. The stamp sizes the row's
/// room from their lengths, then writes them into it.
struct StampValues {
    let indexPath: TableIndexPath
    let id: String?
    let text: String
    let detail: String?
    /// The URLs, nil when `SafeURL` refuses them (the shape says which are kept).
    let image: String?
    let link: String?
    let detailLink: String?
    let deleteTitle: String
    let accessoryTitle: String?
    /// The row's `style` attribute; nil for the table's usual one, `defaultStyle`.
    let cssStyle: String?
    let defaultStyle: [UInt8]

    init(_ row: Row, shape: RowShape, at indexPath: TableIndexPath, defaults: RowDefaults) {
        self.indexPath = indexPath
        id = row.id
        text = row.text
        detail = row.detail
        image = shape.hasImage ? row.image : nil
        link = shape.hasLink ? row.link : nil
        detailLink = shape.hasDetailLink ? row.detailLink : nil
        deleteTitle = row.deleteTitle
        accessoryTitle = row.accessoryTitle
        cssStyle = row.height == nil && row.indentationLevel == 0 ? nil : row.cssStyle(defaults: defaults)
        defaultStyle = defaults.rowStyleBytes
    }

    /// The most bytes `slot`'s value takes before escaping.
    func count(of slot: RowSlot) -> Int {
        switch slot {
        case .section, .row: ReservedBytes.maximumDecimalCount
        case .id: id?.utf8.count ?? 0
        case .text: text.utf8.count
        case .detail: detail?.utf8.count ?? 0
        case .image: image?.utf8.count ?? 0
        case .link: link?.utf8.count ?? 0
        case .detailLink: detailLink?.utf8.count ?? 0
        case .deleteTitle: deleteTitle.utf8.count
        case .cssStyle: cssStyle?.utf8.count ?? defaultStyle.count
        case .accessoryTitle: accessoryTitle?.utf8.count ?? 0
        }
    }

    /// Writes `slot`'s value as ``RowValues`` holds it: text HTML-escaped, numbers and
    /// the style attribute as they are.
    func write(_ slot: RowSlot, to output: inout ReservedBytes) {
        switch slot {
        case .section: output.appendDecimal(indexPath.section)
        case .row: output.appendDecimal(indexPath.row)
        case .id: output.appendHTMLEscaped(id)
        case .text: output.appendHTMLEscaped(text)
        case .detail: output.appendHTMLEscaped(detail)
        case .image: output.appendHTMLEscaped(image)
        case .link: output.appendHTMLEscaped(link)
        case .detailLink: output.appendHTMLEscaped(detailLink)
        case .deleteTitle: output.appendHTMLEscaped(deleteTitle)
        case .accessoryTitle: output.appendHTMLEscaped(accessoryTitle)
        case .cssStyle:
            if var cssStyle {
                cssStyle.withUTF8 { output.append($0) }
            } else {
                output.append(defaultStyle)
            }
        }
    }
}
