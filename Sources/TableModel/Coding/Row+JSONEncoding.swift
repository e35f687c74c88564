import JSON

extension Row {
    /// Writes the row as docs/FORMAT.md shows it: every field, defaults filled in, `null`
    /// for absent optionals.
    ///
    /// The members are written in three steps of reserved room (``JSONWriter/write(atMost:_:)``),
    /// each sized from its strings' lengths; the accessory view and `fields`, of any
    /// size, are written between them with the writer's own calls.
    public func writeJSON(to writer: inout JSONWriter) {
        let keys = RowJSONKeys.shared
        let (id, text, detail, image) = (id, text, detail, image)
        let accessoryView = accessoryView
        writer.write(
            atMost: keys.firstCount + JSONSpan.maximumCount(of: id) + JSONSpan.maximumCount(of: text)
                + JSONSpan.maximumCount(of: detail) + JSONSpan.maximumCount(of: image)
        ) { span in
            span.beginObject()
            span.key(keys.id); span.string(id)
            span.key(keys.style); span.string(keys.name(of: style))
            span.key(keys.text); span.string(text)
            span.key(keys.detail); span.string(detail)
            span.key(keys.image); span.string(image)
            span.key(keys.accessory); span.string(keys.name(of: accessory))
            span.key(keys.accessoryView)
            if accessoryView == nil { span.null() }
        }
        if let accessoryView { accessoryView.writeJSON(to: &writer) }
        let (deleteTitle, template, fields) = (deleteTitle, template, fields)
        writer.write(
            atMost: keys.middleCount + JSONSpan.maximumCount(of: deleteTitle) + JSONSpan.maximumCount(of: template)
        ) { span in
            span.key(keys.selectionStyle); span.string(keys.name(of: selectionStyle))
            span.key(keys.editingStyle); span.string(keys.name(of: editingStyle))
            span.key(keys.canEdit); span.bool(canEdit)
            span.key(keys.canMove); span.bool(canMove)
            span.key(keys.deleteTitle); span.string(deleteTitle)
            span.key(keys.indentationLevel); span.integer(indentationLevel)
            span.key(keys.height); span.double(height)
            span.key(keys.selected); span.bool(selected)
            span.key(keys.template); span.string(template)
            span.key(keys.fields)
            if fields.isEmpty {
                span.beginObject()
                span.endObject()
            }
        }
        if !fields.isEmpty { writer.object(fields) }
        let (link, detailLink) = (link, detailLink)
        writer.write(atMost: keys.lastCount + JSONSpan.maximumCount(of: link) + JSONSpan.maximumCount(of: detailLink)) {
            span in
            span.key(keys.link); span.string(link)
            span.key(keys.detailLink); span.string(detailLink)
            span.endObject()
        }
    }

    /// The row as a JSON document.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writeJSON(to: &writer)
        return writer.bytes
    }
}

/// The keys of a row's JSON, escaped once (a page of rows writes each a thousand times).
private final class RowJSONKeys: Sendable {
    static let shared = RowJSONKeys()

    let id = JSONKey("id")
    let style = JSONKey("style")
    let text = JSONKey("text")
    let detail = JSONKey("detail")
    let image = JSONKey("image")
    let accessory = JSONKey("accessory")
    let accessoryView = JSONKey("accessoryView")
    let selectionStyle = JSONKey("selectionStyle")
    let editingStyle = JSONKey("editingStyle")
    let canEdit = JSONKey("canEdit")
    let canMove = JSONKey("canMove")
    let deleteTitle = JSONKey("deleteTitle")
    let indentationLevel = JSONKey("indentationLevel")
    let height = JSONKey("height")
    let selected = JSONKey("selected")
    let template = JSONKey("template")
    let fields = JSONKey("fields")
    let link = JSONKey("link")
    let detailLink = JSONKey("detailLink")

    /// The enumerations' cases with their names quoted once.
    private let styles = RowJSONKeys.names(of: CellStyle.self)
    private let accessories = RowJSONKeys.names(of: Accessory.self)
    private let selectionStyles = RowJSONKeys.names(of: SelectionStyle.self)
    private let editingStyles = RowJSONKeys.names(of: EditingStyle.self)

    /// The most bytes of each step of `Row.writeJSON` besides its free-length
    /// strings: keys, brackets, enumerations' names, booleans and numbers.
    let firstCount: Int
    let middleCount: Int
    let lastCount: Int

    private init() {
        let literal = JSONSpan.maximumLiteralCount
        let names =
            styles.map(\.name) + accessories.map(\.name) + selectionStyles.map(\.name) + editingStyles.map(\.name)
        let name = 1 + names.map(\.bytes.count).max()!
        firstCount =
            literal + [id, style, text, detail, image, accessory, accessoryView].map(\.bytes.count).reduce(0, +)
            + 2 * name + literal
        middleCount =
            [
                selectionStyle, editingStyle, canEdit, canMove, deleteTitle, indentationLevel, height, selected,
                template, fields,
            ]
            .map(\.bytes.count).reduce(0, +) + 2 * name + 3 * literal + JSONSpan.maximumIntegerCount
            + JSONSpan.maximumDoubleCount + 2 * literal
        lastCount = link.bytes.count + detailLink.bytes.count + literal
    }

    func name(of style: CellStyle) -> JSONQuotedString { Self.name(of: style, in: styles) }
    func name(of accessory: Accessory) -> JSONQuotedString { Self.name(of: accessory, in: accessories) }
    func name(of style: SelectionStyle) -> JSONQuotedString { Self.name(of: style, in: selectionStyles) }
    func name(of style: EditingStyle) -> JSONQuotedString { Self.name(of: style, in: editingStyles) }

    private static func names<Value: CaseIterable & RawRepresentable<String>>(of _: Value.Type)
        -> [(value: Value, name: JSONQuotedString)]
    {
        Value.allCases.map { ($0, JSONQuotedString($0.rawValue)) }
    }

    /// `value`'s name among `names`: a scan of at most five cases (`allCases` would
    /// make an array on every call).
    private static func name<Value: Equatable>(of value: Value, in names: [(value: Value, name: JSONQuotedString)])
        -> JSONQuotedString
    {
        for candidate in names where candidate.value == value { return candidate.name }
        preconditionFailure("every case has a name")
    }
}

extension AccessoryView {
    /// Writes the accessory view as docs/FORMAT.md shows it: `type` and that type's fields.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); writer.string(kind.rawValue)
        switch self {
        case .switch(let isOn, let isEnabled):
            writer.key("on"); writer.bool(isOn)
            writer.key("enabled"); writer.bool(isEnabled)
        case .badge(let text):
            writer.key("text"); writer.string(text)
        case .activityIndicator:
            break
        case .button(let title):
            writer.key("title"); writer.string(title)
        }
        writer.endObject()
    }
}
