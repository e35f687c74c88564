import CPrefetch
import JSON

/// One row of a section: the content of the cell UIKit would dequeue for it.
///
/// Every property has the default of docs/FORMAT.md, so `Row(text: "Hello")` is a valid row.
///
/// A table can hold millions of rows, and most rows set little besides an id and a
/// text. So a row stores inline only what every row reads — `id`, `text` and the
/// one-byte choices and flags — in 48 bytes; the properties rows rarely set (detail
/// text, image, accessory view, delete title, indentation, height, template and
/// fields, links) live in one shared box (`Extras`), allocated the first time one of
/// them is set to something other than its default and copied on write. A row of
/// defaults there has no box at all. Equality and hashing are by content, box or not
/// (docs/ARCHITECTURE.md, *Rows in memory*).
public struct Row: Sendable, Hashable {
    /// Optional; unique within the table when given.
    public var id: String?
    public var text: String
    /// The rare properties, `nil` while they all have their defaults.
    private var extras: ExtrasBox?
    private var inline: Inline

    public var style: CellStyle {
        get { inline.style }
        set { inline.style = newValue }
    }
    public var accessory: Accessory {
        get { inline.accessory }
        set { inline.accessory = newValue }
    }
    public var selectionStyle: SelectionStyle {
        get { inline.selectionStyle }
        set { inline.selectionStyle = newValue }
    }
    public var editingStyle: EditingStyle {
        get { inline.editingStyle }
        set { inline.editingStyle = newValue }
    }
    /// `tableView(_:canEditRowAt:)`.
    public var canEdit: Bool {
        get { inline.canEdit }
        set { inline.canEdit = newValue }
    }
    /// `tableView(_:canMoveRowAt:)`.
    public var canMove: Bool {
        get { inline.canMove }
        set { inline.canMove = newValue }
    }
    public var selected: Bool {
        get { inline.selected }
        set { inline.selected = newValue }
    }

    public var detail: String? {
        get { extras?.value.detail ?? nil }
        set { setExtra(\.detail, newValue) }
    }
    /// URL of an image drawn left of the text.
    public var image: String? {
        get { extras?.value.image ?? nil }
        set { setExtra(\.image, newValue) }
    }
    /// A control drawn instead of `accessory` when set (`UITableViewCell.accessoryView`).
    public var accessoryView: AccessoryView? {
        get { extras?.value.accessoryView ?? nil }
        set { setExtra(\.accessoryView, newValue) }
    }
    /// `tableView(_:titleForDeleteConfirmationButtonForRowAt:)`.
    public var deleteTitle: String {
        get { extras?.value.deleteTitle ?? Extras.defaults.deleteTitle }
        set { setExtra(\.deleteTitle, newValue) }
    }
    public var indentationLevel: Int {
        get { extras?.value.indentationLevel ?? 0 }
        set { setExtra(\.indentationLevel, newValue) }
    }
    /// Overrides the table's `rowHeight` when set.
    public var height: Double? {
        get { extras?.value.height ?? nil }
        set { setExtra(\.height, newValue) }
    }
    /// With style `custom`: the cell template's name (`Templates/cells/NAME.mustache`).
    public var template: String? {
        get { extras?.value.template ?? nil }
        set { setExtra(\.template, newValue) }
    }
    /// With style `custom`: values the template reads.
    public var fields: JSONObject {
        get { extras?.value.fields ?? JSONObject() }
        set { setExtra(\.fields, newValue) }
    }
    /// URL the row opens when selected (a segue).
    public var link: String? {
        get { extras?.value.link ?? nil }
        set { setExtra(\.link, newValue) }
    }
    /// URL the accessory button opens (`accessoryButtonTappedForRowWith`).
    public var detailLink: String? {
        get { extras?.value.detailLink ?? nil }
        set { setExtra(\.detailLink, newValue) }
    }

    public init(
        id: String? = nil,
        style: CellStyle = .default,
        text: String = "",
        detail: String? = nil,
        image: String? = nil,
        accessory: Accessory = .none,
        accessoryView: AccessoryView? = nil,
        selectionStyle: SelectionStyle = .default,
        editingStyle: EditingStyle = .delete,
        canEdit: Bool = true,
        canMove: Bool = true,
        deleteTitle: String = "Delete",
        indentationLevel: Int = 0,
        height: Double? = nil,
        selected: Bool = false,
        template: String? = nil,
        fields: JSONObject = JSONObject(),
        link: String? = nil,
        detailLink: String? = nil
    ) {
        self.id = id
        self.text = text
        self.inline = Inline(
            style: style, accessory: accessory, selectionStyle: selectionStyle, editingStyle: editingStyle,
            canEdit: canEdit, canMove: canMove, selected: selected)
        let extras = Extras(
            detail: detail, image: image, accessoryView: accessoryView, deleteTitle: deleteTitle,
            indentationLevel: indentationLevel, height: height, template: template, fields: fields, link: link,
            detailLink: detailLink)
        self.extras = extras == Extras.defaults ? nil : ExtrasBox(extras)
    }

    public static func == (left: Row, right: Row) -> Bool {
        left.id == right.id && left.text == right.text && left.inline == right.inline
            && (left.extras?.value ?? Extras.defaults) == (right.extras?.value ?? Extras.defaults)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(text)
        hasher.combine(inline)
        hasher.combine(extras?.value ?? Extras.defaults)
    }

    /// Sets one rare property: a default on a row without a box changes nothing; any
    /// other value gets the row a box of its own first (a new one, or a copy of a
    /// shared one).
    private mutating func setExtra<Value: Equatable>(_ property: WritableKeyPath<Extras, Value>, _ value: Value) {
        if extras == nil {
            if value == Extras.defaults[keyPath: property] { return }
            extras = ExtrasBox(Extras.defaults)
        } else if !isKnownUniquelyReferenced(&extras!) {
            extras = ExtrasBox(extras!.value)
        }
        extras!.value[keyPath: property] = value
    }
}

extension Row {
    /// The one-byte properties every row has, stored side by side (7 bytes, no padding).
    struct Inline: Hashable {
        var style: CellStyle
        var accessory: Accessory
        var selectionStyle: SelectionStyle
        var editingStyle: EditingStyle
        var canEdit: Bool
        var canMove: Bool
        var selected: Bool
    }

    /// The properties rows rarely set, with their defaults.
    struct Extras: Hashable {
        static let defaults = Extras(
            detail: nil, image: nil, accessoryView: nil, deleteTitle: "Delete", indentationLevel: 0, height: nil,
            template: nil, fields: JSONObject(), link: nil, detailLink: nil)

        var detail: String?
        var image: String?
        var accessoryView: AccessoryView?
        var deleteTitle: String
        var indentationLevel: Int
        var height: Double?
        var template: String?
        var fields: JSONObject
        var link: String?
        var detailLink: String?
    }

    /// Hands `body` the rows at `indexes` of a leaf's `rows` (at `offset +`
    /// their index in the list), in order, each row's box of rare properties
    /// asked for first, for all of them at once.
    ///
    /// A view copies each row it selects, and a copy counts a reference on the
    /// row's box: an atomic write that waits for the box's line to come from
    /// memory and holds up every load after it, so a view's rows were fetched
    /// one after the other, a few hundred nanoseconds each (1,000,000 rows, each
    /// box an allocation of its own; docs/perf-history/live-views-and-search.md,
    /// "Opening a view: the walk and the copies"). A prefetch is a hint that
    /// nothing waits for: the boxes of a leaf's rows are on their way together.
    static func handPrefetched(
        _ rows: UnsafeBufferPointer<Row>, _ indexes: [Int], from offset: Int, _ body: (Int, UnsafePointer<Row>) -> Void
    ) {
        for index in indexes {
            if let extras = rows[index].extras { wtv_prefetch_for_write(Unmanaged.passUnretained(extras).toOpaque()) }
        }
        for index in indexes { body(offset + index, rows.baseAddress! + index) }
    }

    /// The box a row's `Extras` live in, shared by copies of the row.
    ///
    /// `@unchecked Sendable`: `value` is mutated only through `Row.setExtra`, after
    /// `isKnownUniquelyReferenced` has shown that one row holds the box; a shared box
    /// is copied, never changed (copy-on-write, as `Array`'s buffer).
    /// `@exclusivity(unchecked)`: that discipline already rules out overlapping
    /// accesses, and the run-time check on every read of a rare property cost an
    /// eighth of drawing a page's rows (docs/perf-history/fixed-in-the-product.md, *The 1,000-row page
    /// and its rows' JSON*).
    final class ExtrasBox: @unchecked Sendable {
        @exclusivity(unchecked) var value: Extras

        init(_ value: Extras) { self.value = value }
    }

    /// Whether `body` holds for the text of the row at `row`, its detail or
    /// one of its string fields, in that order: each read in place, the row
    /// not copied (what a search asks of every row of a table, `RowSelection`).
    static func anyText(at row: UnsafePointer<Row>, _ body: (String) -> Bool) -> Bool {
        if body(row.pointee.text) { return true }
        // The box is lent, not retained: the row, alive for the call, holds it.
        guard let box = UnsafeRawPointer(row).load(fromByteOffset: extrasOffset, as: UnsafeRawPointer?.self) else {
            return false
        }
        return Unmanaged<ExtrasBox>.fromOpaque(box)._withUnsafeGuaranteedRef { extras in
            if let detail = extras.value.detail, body(detail) { return true }
            return extras.value.fields.members.withUnsafeBufferPointer { members in
                for index in members.indices {
                    if case .string(let text) = members[index].value, body(text) { return true }
                }
                return false
            }
        }
    }

    /// Where a row holds its box of rare properties (nil, or the box's address).
    private static let extrasOffset = MemoryLayout<Row>.offset(of: \Row.extras)!

    /// Whether the row stores any rare property (tests pin the compact form with it).
    var hasExtras: Bool { extras != nil }
}
