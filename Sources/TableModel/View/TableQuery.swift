/// A view of a table, as `NSFetchedResultsController` describes one: a predicate
/// (`q` and filters), sort descriptors (`sort`) and a `sectionNameKeyPath`
/// (`group`). Parsed from a request's query parameters (docs/API.md, "Views");
/// `view(of:)` derives the view from a table.
///
/// Equal queries describe the same view whatever the order or spelling of
/// their parameters: `canonicalQuery` is their one spelling.
public struct TableQuery: Sendable, Hashable {
    /// The words of `q`, as given; a row matches when each is found, folded, in
    /// its text, detail or a string field.
    public var words: [String]
    /// Every filter must hold.
    public var filters: [ViewFilter]
    /// Orders the rows within each section of the view; ties keep the table's order.
    public var sort: [ViewSortKey]
    /// The `sectionNameKeyPath`: the view's sections are the values of this key.
    public var group: ViewSortKey?

    public init(words: [String] = [], filters: [ViewFilter] = [], sort: [ViewSortKey] = [], group: ViewSortKey? = nil) {
        self.words = words
        self.filters = filters
        self.sort = sort
        self.group = group
    }

    /// True when the query describes the table itself.
    public var isEmpty: Bool { words.isEmpty && filters.isEmpty && sort.isEmpty && group == nil }

    /// True when the query leaves rows out (`q` or a filter): then, without
    /// `group`, sections with no row in the view are left out too.
    public var selectsRows: Bool { !words.isEmpty || !filters.isEmpty }
}

/// What a filter, a sort key or a group reads of a row.
public enum ViewKey: Sendable, Hashable {
    case text
    case detail
    case id
    /// The id of the row's section.
    case section
    /// A member of the row's `fields`.
    case field(String)

    /// The key as a query names it: `text`, `fields.population`, ….
    public var name: String {
        switch self {
        case .text: "text"
        case .detail: "detail"
        case .id: "id"
        case .section: "section"
        case .field(let name): "fields.\(name)"
        }
    }

    /// The key a query's name means, or nil when it names none.
    public init?(name: String) {
        switch name {
        case "text": self = .text
        case "detail": self = .detail
        case "id": self = .id
        case "section": self = .section
        default:
            // By bytes, not Characters: a field name may begin with a scalar
            // that joins the "." into one Character (an emoji modifier, a
            // combining mark), and "fields.🏻" names the field "🏻".
            let prefix = "fields.".utf8
            guard name.utf8.starts(with: prefix), name.utf8.count > prefix.count else { return nil }
            self = .field(String(decoding: name.utf8.dropFirst(prefix.count), as: UTF8.self))
        }
    }

    /// The keys a query may name, for error messages.
    static let allowed = "text, detail, id, section or fields.NAME"
}

/// `filter[KEY][OP]=VALUE`.
public struct ViewFilter: Sendable, Hashable {
    /// How a row's value is held against the filter's.
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        case eq, ne, lt, lte, gt, gte, prefix
    }

    public var key: ViewKey
    public var op: Operator
    public var value: String

    public init(key: ViewKey, op: Operator = .eq, value: String) {
        self.key = key
        self.op = op
        self.value = value
    }
}

/// One key of `sort` or `group`: `KEY`, or `-KEY` for descending.
public struct ViewSortKey: Sendable, Hashable {
    public var key: ViewKey
    public var descending: Bool

    public init(key: ViewKey, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }

    /// `KEY` or `-KEY`.
    public var name: String { (descending ? "-" : "") + key.name }
}

/// A query parameter that describes no view: which parameter, and what it allows.
public struct TableQueryError: Error, Sendable, Equatable {
    /// The parameter's name as sent (`sort`, `filter[fields.pop][gt]`).
    public var parameter: String
    /// What was wrong and what is allowed, in a sentence.
    public var detail: String
}
