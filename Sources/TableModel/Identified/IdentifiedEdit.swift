/// One edit that names rows ("items") and sections by their ids, the way
/// `NSDiffableDataSourceSnapshot` is edited before `apply(_:animatingDifferences:)`.
///
/// A list of them is applied in order, each seeing the table as the edits
/// before it left it, and is translated into one index `Batch`
/// (`IdentifiedBatch.translated(for:)`); see docs/API.md, "Edits by id".
public enum IdentifiedEdit: Sendable, Equatable {
    /// Where inserted or moved rows go.
    public enum ItemPlace: Sendable, Equatable {
        /// `insertItems(_:beforeItem:)`, `moveItem(_:beforeItem:)`.
        case before(String)
        /// `insertItems(_:afterItem:)`, `moveItem(_:afterItem:)`.
        case after(String)
        /// `appendItems(_:toSection:)`: the end of the section with this id, or
        /// of the last section when nil.
        case end(section: String?)
    }

    /// Where inserted or moved sections go.
    public enum SectionPlace: Sendable, Equatable {
        /// `insertSections(_:beforeSection:)`, `moveSection(_:beforeSection:)`.
        case before(String)
        /// `insertSections(_:afterSection:)`, `moveSection(_:afterSection:)`.
        case after(String)
        /// `appendSections(_:)`: after the last section.
        case end
    }

    /// `insertItems` / `appendItems`: new rows, each with an id not in the table.
    case insertItems([Row], ItemPlace)
    /// `deleteItems`.
    case deleteItems([String])
    /// `moveItem`.
    case moveItem(String, ItemPlace)
    /// `reloadItems`: each row replaces the row with its id.
    case reloadItems([Row])
    /// `reconfigureItems`: like `reloadItems`; the published batch is a reload
    /// (the index form has no other way to say a row's content changed).
    case reconfigureItems([Row])
    /// `insertSections` / `appendSections`: new sections with their rows.
    case insertSections([Section], SectionPlace)
    /// `deleteSections`, with their rows.
    case deleteSections([String])
    /// `moveSection`.
    case moveSection(String, SectionPlace)
    /// `reloadSections`: each section's header, footer and index title replace
    /// those of the section with its id; its rows stay.
    case reloadSections([Section])
}

/// Edits by id applied as one version step: `performBatchUpdates` in the words of
/// a diffable data source.
public struct IdentifiedBatch: Sendable, Equatable {
    public var edits: [IdentifiedEdit]
    public var animation: RowAnimation
    /// Checked after the update, as a batch's `expect`.
    public var expect: Batch.Expectation?

    public init(edits: [IdentifiedEdit], animation: RowAnimation = .automatic, expect: Batch.Expectation? = nil) {
        self.edits = edits
        self.animation = animation
        self.expect = expect
    }
}

/// The rules only an edit by id can break. A refusal is a `BatchError` whose
/// `type` is one of these raw values (or `duplicate-id`, `invalid-update` of
/// `BatchError.Rule`), so it is answered like any refused batch.
public enum IdentifiedEditRule: String, Sendable, CaseIterable {
    /// A row or section id (edited, or an anchor) that is not in the table at that point.
    case unknownID = "unknown-id"
    /// A row or section moved before or after itself.
    case moveRelativeToItself = "move-relative-to-itself"
    /// A row or section inserted or reloaded by id without an id.
    case missingID = "missing-id"
}

extension BatchError {
    init(_ rule: IdentifiedEditRule, _ detail: String) {
        self.init(type: rule.rawValue, detail: detail)
    }

    /// `action` ends with what is named: "delete item", "insert items before item".
    public static func unknownItem(_ id: String, _ action: String) -> Self {
        Self(.unknownID, "attempt to \(action) \"\(id)\", which is not in the table")
    }

    /// `action` ends with what is named: "delete section", "move items into section".
    static func unknownSection(_ id: String, _ action: String) -> Self {
        Self(.unknownID, "attempt to \(action) \"\(id)\", which is not in the table")
    }

    /// An item inserted with the id of an item in the table; `place` says where
    /// that one is: `[2, 1] in section "green"`.
    static func itemAlreadyInTable(_ id: String, _ action: String, at place: String) -> Self {
        Self(
            .duplicateID,
            "attempt to \(action) \"\(id)\", which is already in the table at \(place); item ids are unique")
    }

    /// One list of an edit (`insertItems`, `deleteItems`…) naming an item twice.
    static func itemNamedTwice(_ id: String, in list: String) -> Self {
        Self(.duplicateID, "item \"\(id)\" is named twice in \(list); item ids are unique")
    }

    /// A section inserted with the id of the section at `index` in the table.
    static func sectionAlreadyInTable(_ id: String, at index: Int) -> Self {
        Self(
            .duplicateID,
            "attempt to insert section \"\(id)\", which is already in the table at section \(index); section ids are unique"
        )
    }

    /// One list of an edit (`insertSections`, `deleteSections`…) naming a section twice.
    static func sectionNamedTwice(_ id: String, in list: String) -> Self {
        Self(.duplicateID, "section \"\(id)\" is named twice in \(list); section ids are unique")
    }

    static func itemMovedRelativeToItself(_ id: String) -> Self {
        Self(.moveRelativeToItself, "attempt to move item \"\(id)\" relative to itself")
    }

    static func sectionMovedRelativeToItself(_ id: String) -> Self {
        Self(.moveRelativeToItself, "attempt to move section \"\(id)\" relative to itself")
    }

    static let noSectionToAppendTo = Self(
        .invalidUpdate, "There are currently no sections in the data source. Please add a section first."
    )

    static func itemWithoutID(_ action: String) -> Self {
        Self(.missingID, "attempt to \(action) an item without an id; items edited by id need one")
    }

    static func sectionWithoutID(_ action: String) -> Self {
        Self(.missingID, "attempt to \(action) a section without an id; sections edited by id need one")
    }
}
