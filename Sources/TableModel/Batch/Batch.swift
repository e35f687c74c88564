import JSON

/// A set of edits applied atomically as one version step: UIKit's `performBatchUpdates`.
///
/// Deletes, reloads and the `from` of a move name positions before the batch;
/// inserts and the `to` of a move name positions after it. The order of the
/// operations inside each list does not matter. See `BatchAlgorithm.swift`.
public struct Batch: Sendable, Equatable {
    /// A section placed at `at`: an insert (index after the batch) or a reload (index before it).
    public struct SectionItem: Sendable, Equatable {
        public var at: Int
        public var section: Section
        public init(at: Int, section: Section) {
            self.at = at
            self.section = section
        }
    }

    /// A row placed at `at`: an insert (index path after the batch) or a reload (before it).
    public struct RowItem: Sendable, Equatable {
        public var at: TableIndexPath
        public var row: Row
        public init(at: TableIndexPath, row: Row) {
            self.at = at
            self.row = row
        }
    }

    /// `moveSection(_:toSection:)`: `from` before the batch, `to` after it.
    public struct SectionMove: Sendable, Equatable {
        public var from: Int
        public var to: Int
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// `moveRow(at:to:)`: `from` before the batch, `to` after it.
    public struct RowMove: Sendable, Equatable {
        public var from: TableIndexPath
        public var to: TableIndexPath
        public init(from: TableIndexPath, to: TableIndexPath) {
            self.from = from
            self.to = to
        }
    }

    /// A press of the accessory button of the row at `at` (before the batch),
    /// with that row's id when it has one: an event, not an edit.
    public struct Press: Sendable, Equatable {
        public var at: TableIndexPath
        public var id: String?
        public init(at: TableIndexPath, id: String?) {
            self.at = at
            self.id = id
        }
    }

    /// Counts the data source promises after the update, checked the way UIKit
    /// checks `numberOfSections` and `numberOfRowsInSection`.
    public struct Expectation: Sendable, Equatable {
        public var sections: Int?
        /// When given, the row count of every section after the update.
        public var rows: [Int]?
        public init(sections: Int? = nil, rows: [Int]? = nil) {
            self.sections = sections
            self.rows = rows
        }
    }

    public var deleteSections: [Int]
    public var insertSections: [SectionItem]
    public var reloadSections: [SectionItem]
    public var moveSections: [SectionMove]
    public var deleteRows: [TableIndexPath]
    public var insertRows: [RowItem]
    public var reloadRows: [RowItem]
    public var moveRows: [RowMove]
    /// Table properties changed with this batch (PATCH of the table); nil when none.
    public var properties: TableProperties? {
        get { propertiesBox?.properties }
        set { propertiesBox = newValue.map(PropertiesBox.init) }
    }
    /// `properties`, held by reference: most batches change none, and a
    /// batch is copied along an edit's way, where a reference is one word
    /// to copy and the properties (a default view, a source) hundreds of
    /// bytes and a dozen references (docs/perf-history/not-met-and-left-to-do.md).
    private var propertiesBox: PropertiesBox?
    /// A press of a row's accessory button that this version reports; nil when none.
    /// It changes no row, yet makes the batch non-empty so it is versioned and published.
    public var press: Press?
    public var animation: RowAnimation
    /// Checked after the update, never published.
    public var expect: Expectation?

    public init(
        deleteSections: [Int] = [],
        insertSections: [SectionItem] = [],
        reloadSections: [SectionItem] = [],
        moveSections: [SectionMove] = [],
        deleteRows: [TableIndexPath] = [],
        insertRows: [RowItem] = [],
        reloadRows: [RowItem] = [],
        moveRows: [RowMove] = [],
        properties: TableProperties? = nil,
        press: Press? = nil,
        animation: RowAnimation = .automatic,
        expect: Expectation? = nil
    ) {
        self.deleteSections = deleteSections
        self.insertSections = insertSections
        self.reloadSections = reloadSections
        self.moveSections = moveSections
        self.deleteRows = deleteRows
        self.insertRows = insertRows
        self.reloadRows = reloadRows
        self.moveRows = moveRows
        self.propertiesBox = properties.map(PropertiesBox.init)
        self.press = press
        self.animation = animation
        self.expect = expect
    }

    /// True when the batch has no operation and reports no press: it changes nothing and publishes nothing.
    public var isEmpty: Bool {
        deleteSections.isEmpty && insertSections.isEmpty && reloadSections.isEmpty
            && moveSections.isEmpty && deleteRows.isEmpty && insertRows.isEmpty
            && reloadRows.isEmpty && moveRows.isEmpty && (properties?.isEmpty ?? true)
            && press == nil
    }
}

/// The table-level properties a PATCH may change; nil means "leave as it is".
/// `header` and `footer` use a double optional: `.some(nil)` clears them.
public struct TableProperties: Sendable, Equatable {
    public var title: String??
    public var style: TableStyle?
    public var header: String??
    public var footer: String??
    public var rowHeight: Double?
    public var allowsSelection: Bool?
    public var allowsMultipleSelection: Bool?
    /// `.some(nil)` clears the table's default view.
    public var defaultView: TableQuery??
    /// `.some(nil)` forgets how a file made the table.
    public var source: TableSource??
    /// The table's `access` (`Table.access`); `.some(nil)` removes it. Only
    /// a snapshot `PUT` changes it, and only the durable logs record it.
    public var access: JSONObject??

    public init(
        title: String?? = nil,
        style: TableStyle? = nil,
        header: String?? = nil,
        footer: String?? = nil,
        rowHeight: Double? = nil,
        allowsSelection: Bool? = nil,
        allowsMultipleSelection: Bool? = nil,
        defaultView: TableQuery?? = nil,
        source: TableSource?? = nil,
        access: JSONObject?? = nil
    ) {
        self.title = title
        self.style = style
        self.header = header
        self.footer = footer
        self.rowHeight = rowHeight
        self.allowsSelection = allowsSelection
        self.allowsMultipleSelection = allowsMultipleSelection
        self.defaultView = defaultView
        self.source = source
        self.access = access
    }

    public var isEmpty: Bool {
        shownEmpty && access == nil
    }

    /// Whether it changes nothing but `access` (or nothing): nothing anyone
    /// but the durable logs is shown.
    public var shownEmpty: Bool {
        title == nil && style == nil && header == nil && footer == nil && rowHeight == nil
            && allowsSelection == nil && allowsMultipleSelection == nil && defaultView == nil
            && source == nil
    }
}

/// Why a batch was refused: the rule it breaks (`type`, a short slug such as
/// `row-in-replaced-section`) and UIKit's own words for it (`detail`).
///
/// `type` is always the raw value of one of the `Rule`s below.
public struct BatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The rules a batch can break; the raw value is the problem document's `type`.
    public enum Rule: String, Sendable, CaseIterable {
        /// A position outside the table before the batch (deletes, reloads, move
        /// sources) or after it (inserts, move targets).
        case indexOutOfRange = "index-out-of-range"
        /// The same position twice in one list (two deletes of one row, two moves
        /// from one section, two inserts at one index path, two moves to one place).
        case duplicatePosition = "duplicate-position"
        /// An insert and a move aimed at the same final position.
        case duplicateTarget = "duplicate-target"
        /// One section or row both deleted and reloaded.
        case deleteAndReload = "delete-and-reload"
        /// One section or row both deleted and moved.
        case deleteAndMove = "delete-and-move"
        /// One section or row both reloaded and moved.
        case reloadAndMove = "reload-and-move"
        /// A row edit in a section that the batch deletes, inserts or reloads
        /// (including a row moved from a deleted or into an inserted section).
        case rowInReplacedSection = "row-in-replaced-section"
        /// A section or row id that would appear twice in the table after the batch.
        case duplicateID = "duplicate-id"
        /// The counts after the batch differ from what its `expect` promised.
        case invalidUpdate = "invalid-update"
    }

    public var type: String
    public var detail: String
    public init(type: String, detail: String) {
        self.type = type
        self.detail = detail
    }
    /// The rule broken, when `type` names one.
    public var rule: Rule? { Rule(rawValue: type) }
    public var description: String { detail }
}

extension Batch {
    /// The batch as it is published (docs/API.md, "A batch"): every list sorted by position (moves
    /// by source, then target), `expect` dropped, and `properties` only when they
    /// set something. Inserted and reloaded rows and sections are kept in full.
    public func normalised() -> Batch {
        var batch = self
        batch.deleteSections.sortIfNeeded(by: <)
        batch.insertSections.sortIfNeeded { $0.at < $1.at }
        batch.reloadSections.sortIfNeeded { $0.at < $1.at }
        batch.moveSections.sortIfNeeded { ($0.from, $0.to) < ($1.from, $1.to) }
        batch.deleteRows.sortIfNeeded(by: <)
        batch.insertRows.sortIfNeeded { $0.at < $1.at }
        batch.reloadRows.sortIfNeeded { $0.at < $1.at }
        batch.moveRows.sortIfNeeded { ($0.from, $0.to) < ($1.from, $1.to) }
        if batch.properties?.isEmpty ?? false { batch.properties = nil }
        batch.expect = nil
        return batch
    }
}

extension Array {
    /// Sorts the array unless it is already in order: one pass, and no copy of a
    /// shared buffer, for the lists that are built in order (most of a diff's).
    /// Positions in a batch are unique, so the result is the sort's.
    mutating func sortIfNeeded(by areInIncreasingOrder: (Element, Element) -> Bool) {
        var index = 1
        while index < count {
            if areInIncreasingOrder(self[index], self[index - 1]) {
                sort(by: areInIncreasingOrder)
                return
            }
            index += 1
        }
    }
}

extension TableProperties {
    /// Only the properties that differ from `table`'s; nil when none does, so a
    /// PATCH that changes nothing is a no-op.
    func changes(from table: Table) -> TableProperties? {
        var changed = TableProperties()
        if let title, title != table.title { changed.title = title }
        if let style, style != table.style { changed.style = style }
        if let header, header != table.header { changed.header = header }
        if let footer, footer != table.footer { changed.footer = footer }
        if let rowHeight, rowHeight != table.rowHeight { changed.rowHeight = rowHeight }
        if let allowsSelection, allowsSelection != table.allowsSelection { changed.allowsSelection = allowsSelection }
        if let allowsMultipleSelection, allowsMultipleSelection != table.allowsMultipleSelection {
            changed.allowsMultipleSelection = allowsMultipleSelection
        }
        if let defaultView, defaultView != table.defaultView { changed.defaultView = defaultView }
        if let source, source != table.source { changed.source = source }
        if let access, access != table.access { changed.access = access }
        return changed.isEmpty ? nil : changed
    }

    /// Sets on `table` every property this PATCH names.
    func apply(to table: inout Table) {
        if let title { table.title = title }
        if let style { table.style = style }
        if let header { table.header = header }
        if let footer { table.footer = footer }
        if let rowHeight { table.rowHeight = rowHeight }
        if let allowsSelection { table.allowsSelection = allowsSelection }
        if let allowsMultipleSelection { table.allowsMultipleSelection = allowsMultipleSelection }
        if let defaultView { table.defaultView = defaultView }
        if let source { table.source = source }
        if let access { table.access = access }
    }
}

/// A batch's table properties, held by reference and never changed (`Batch.properties`).
private final class PropertiesBox: Sendable, Equatable {
    let properties: TableProperties

    init(_ properties: TableProperties) {
        self.properties = properties
    }

    static func == (lhs: PropertiesBox, rhs: PropertiesBox) -> Bool {
        lhs === rhs || lhs.properties == rhs.properties
    }
}
