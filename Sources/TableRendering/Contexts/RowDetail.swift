import JSON
import Mustache
import TableModel

/// How a row with `fields` is drawn (docs/FORMAT.md, "The HTML"): as iOS lists
/// records, with a secondary label and a way into the whole record. A row with
/// fields and no `detail` shows its first field's value as its detail (a
/// `default` cell becomes a `subtitle` one, as a default cell has no detail
/// label); a row with fields, an id and no `link` of its own opens its detail
/// page (`/tables/{t}/rows/{id}`), with a disclosure indicator unless it has an
/// accessory already. Custom cells draw their fields themselves.
enum RowDetail {
    /// What a row is drawn as, once its fields are taken into account.
    struct Drawing {
        var style: CellStyle
        var accessory: Accessory
        /// The secondary label's text, before escaping.
        var detail: String?
        var opensDetailPage: Bool
    }

    static func drawing(_ row: Row) -> Drawing {
        let fields = row.fields
        guard row.style != .custom, !fields.isEmpty else {
            return Drawing(style: row.style, accessory: row.accessory, detail: row.detail, opensDetailPage: false)
        }
        let fieldDetail =
            row.detail == nil ? fields.members.first { $0.value != .null }.map { text(of: $0.value) } : nil
        let opens = row.link == nil && row.id != nil
        return Drawing(
            style: row.style == .default && fieldDetail != nil ? .subtitle : row.style,
            accessory: opens && row.accessory == .none ? .disclosureIndicator : row.accessory,
            detail: row.detail ?? fieldDetail, opensDetailPage: opens)
    }

    /// `/tables/{t}/rows/`, the start of the path of every detail page of table `tableID`.
    static func pathPrefix(tableID: String) -> String {
        "/tables/\(PathEscaping.segment(tableID))/rows/"
    }

    /// A field's value as the page shows it, before escaping: a string as its
    /// text, anything else (numbers, booleans, arrays, objects, null) as its JSON.
    static func text(of value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return String(decoding: value.jsonBytes, as: UTF8.self)
    }
}

/// What `row-detail.mustache` reads: one row's fields, in order, as a record.
struct RowDetailContext: MustacheParent {
    /// One field: its name and its value as text, both escaped, and the kind of
    /// its JSON value (`string`, `number`, `boolean`, `array`, `object`, `null`):
    /// an edit of a string sends a string, of anything else the JSON typed.
    struct Field: MustacheParent {
        let name: String
        let value: String
        let kind: String

        func child(named name: String) -> Any? {
            switch name {
            case "name": self.name
            case "value": value
            case "kind": kind
            default: nil
            }
        }
    }

    /// Escaped.
    let tableID: String
    let id: String
    let title: String
    let version: Int
    let fields: [Field]

    init(_ table: Table, row: Row) {
        tableID = HTMLEscaping.escape(table.id)
        id = HTMLEscaping.escape(row.id ?? "")
        title = HTMLEscaping.escape(row.text)
        version = table.version
        fields = row.fields.members.map { member in
            Field(
                name: HTMLEscaping.escape(member.key), value: HTMLEscaping.escape(RowDetail.text(of: member.value)),
                kind: String(member.value.kindDescription.split(separator: " ").last ?? ""))
        }
    }

    func child(named name: String) -> Any? {
        switch name {
        case "tableID": tableID
        case "id": id
        case "title": title
        case "version": version
        case "fields": fields
        case "hasFields": !fields.isEmpty
        default: nil
        }
    }
}
