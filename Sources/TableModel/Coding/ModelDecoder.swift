import JSON

/// Turns parsed JSON into model values, strictly: unknown fields, wrong types,
/// unknown enum values, bad ids, duplicate ids, unsafe URLs and values beyond
/// `limits` are refused. Every issue in the document is reported, each with its
/// JSON path, not just the first.
///
/// ```swift
/// let json = try JSONParser().parse(body)                         // 400 when this throws
/// let table = try ModelDecoder.table(from: json, limits: limits)   // 422 when this throws
/// ```
public enum ModelDecoder {
    /// The body of `POST .../sections` (`insertSections`): `{"at": 1, "section": Section}`;
    /// `at` nil appends.
    public struct SectionInsert: Sendable, Equatable {
        public var at: Int?
        public var section: Section
        public init(at: Int?, section: Section) {
            self.at = at
            self.section = section
        }
    }

    /// The body of `POST .../sections/{s}/rows`: `{"at", "row"}` or `{"at", "rows"}`,
    /// the rows going to `at`, `at + 1`, …; `at` nil appends.
    public struct RowInsert: Sendable, Equatable {
        public var at: Int?
        public var rows: [Row]
        public init(at: Int?, rows: [Row]) {
            self.at = at
            self.rows = rows
        }
    }

    private static func decode<Value>(
        _ value: JSONValue, _ limits: ModelLimits, _ read: (inout DecodingContext, JSONValue) -> Value?
    ) throws(ValidationError) -> Value {
        var context = DecodingContext(limits: limits)
        let decoded = read(&context, value)
        return try context.result(decoded)
    }

    /// A Table document (docs/FORMAT.md): everything but `id` defaulted; `version` is
    /// accepted and ignored, so a fetched table can be sent back. `id` is required
    /// unless `defaultID` is given (`PUT /api/tables/{t}` names the table in its path).
    public static func table(
        from json: JSONValue, limits: ModelLimits = .default, defaultID: String? = nil
    ) throws(ValidationError) -> Table {
        try decode(json, limits) { $0.table($1, defaultID: defaultID) }
    }

    /// One Table document or an array of them, as a `--data` file holds; the
    /// tables' ids must differ from each other.
    public static func tables(from json: JSONValue, limits: ModelLimits = .default) throws(ValidationError) -> [Table] {
        try decode(json, limits) { $0.tables($1) }
    }

    /// A Section with its rows (the body of `PUT .../sections/{s}`); its row ids
    /// must differ from each other.
    public static func section(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> Section {
        try decode(json, limits) { $0.standaloneSection($1) }
    }

    /// A Row (the body of `PUT .../sections/{s}/rows/{r}`).
    public static func row(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> Row {
        try decode(json, limits) { $0.row($1) }
    }

    /// A batch (docs/API.md, "A batch"), with the `properties` extension of a PATCH.
    public static func batch(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> Batch {
        try decode(json, limits) { $0.batch($1) }
    }

    /// A batch as a log recorded it: like `batch(from:limits:)`, and it may carry
    /// the `press` of a row's accessory button, the table's `access` in its
    /// properties, and (a view's) sections their `groupValue`.
    public static func recordedBatch(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> Batch {
        try decode(json, limits) { context, value in
            context.acceptsPress = true
            context.acceptsAccess = true
            context.acceptsGroupValue = true
            return context.batch(value)
        }
    }

    /// A table as the server wrote it: like `table(from:limits:)`, and (a
    /// view's) sections may carry their `groupValue`.
    public static func recordedTable(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> Table {
        try decode(json, limits) { context, value in
            context.acceptsGroupValue = true
            return context.table(value, defaultID: nil)
        }
    }

    /// The body of `PATCH /api/tables/{t}`.
    public static func properties(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> TableProperties {
        try decode(json, limits) { $0.properties($1) }
    }

    /// The body of `POST .../sections`: `{"at": 1, "section": Section}`, `at` optional.
    public static func sectionInsert(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> SectionInsert {
        try decode(json, limits) { context, value in
            var at: Int?
            var section: Section?
            let isObject = context.members(of: value) { context, key, value in
                switch key {
                case "at": at = context.index(value)
                case "section": section = context.standaloneSection(value)
                default: return false
                }
                return true
            }
            guard isObject, context.requireMembers(["section"], of: value), let section else { return nil }
            return SectionInsert(at: at, section: section)
        }
    }

    /// The body of `POST .../sections/{s}/rows`: `{"at": 2, "row": Row}` or
    /// `{"at": 2, "rows": [Row]}`, `at` optional; the rows' ids must differ from each other.
    /// `at` is the row, or the index path `[section, row]` as in a batch, whose
    /// section must be `section`, the one in the request's path.
    public static func rowInsert(
        from json: JSONValue, inSection section: Int, limits: ModelLimits = .default
    ) throws(ValidationError) -> RowInsert {
        try decode(json, limits) { context, value in
            var at: Int?
            var rows: [Row]?
            var scope = IDScope()
            let scopeSection = scope.beginSection(at: [])
            let isObject = context.members(of: value) { context, key, value in
                switch key {
                case "at": at = context.row(value, inSection: section)
                case "row": rows = context.row(value).map { [$0] } ?? []
                case "rows": rows = context.rows(value, scope: &scope, section: scopeSection)
                default: return false
                }
                return true
            }
            guard isObject, case .object(let object) = value else { return nil }
            switch (object["row"], object["rows"]) {
            case (nil, nil): context.report("missing required field \"row\" or \"rows\"")
            case (.some, .some): context.report("give either \"row\" or \"rows\", not both")
            default: break
            }
            guard let rows else { return nil }
            return RowInsert(at: at, rows: rows)
        }
    }

    /// The body of `POST .../sections/{s}/move`: `{"to": 0}`, where the section goes.
    public static func sectionMove(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> Int {
        try singleMember("to", of: json, limits) { context, value in context.index(value) }
    }

    /// The body of `…/switch`: `{"on": true}` or `{"on": false}`.
    public static func switchValue(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> Bool {
        try singleMember("on", of: json, limits) { context, value in context.bool(value) }
    }

    /// The body of `POST .../rows/{r}/move`: `{"to": [0, 3]}`, where the row goes.
    public static func rowMove(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> TableIndexPath {
        try singleMember("to", of: json, limits) { context, value in context.indexPath(value) }
    }

    /// A body that is an object with exactly one (required) member, `key`, read by `read`.
    private static func singleMember<Value>(
        _ key: String, of json: JSONValue, _ limits: ModelLimits,
        _ read: @escaping (inout DecodingContext, JSONValue) -> Value?
    ) throws(ValidationError) -> Value {
        try decode(json, limits) { context, value in
            var decoded: Value?
            let isObject = context.members(of: value) { context, name, value in
                guard name == key else { return false }
                decoded = read(&context, value)
                return true
            }
            guard isObject, context.requireMembers([key], of: value) else { return nil }
            return decoded
        }
    }
}

// MARK: Edits by id (docs/API.md, "Edits by id")

extension ModelDecoder {
    /// The body of `POST /api/tables/{t}/batch-by-id`: `{"edits": [...], "animation", "expect"}`.
    public static func identifiedBatch(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> IdentifiedBatch {
        try decode(json, limits) { $0.identifiedBatch($1) }
    }

    /// The body of `POST .../items`: `{"row": Row}` or `{"rows": [Row]}`, each with
    /// an id, and at most one of `beforeItem`, `afterItem`, `toSection` (none: the
    /// end of the last section).
    public static func itemInsert(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> IdentifiedEdit {
        try decode(json, limits) { context, value in
            let rows = context.oneOrMany(value, "row", "rows") { $0.identifiedRow($1) }
            let place = context.placement(value, besides: ["row", "rows"], DecodingContext.itemPlaces, required: false)
            guard let rows, let place else { return nil }
            return .insertItems(rows, DecodingContext.itemPlace(place))
        }
    }

    /// The body of `POST .../items/{rowID}/move`: exactly one of
    /// `{"beforeItem": id}`, `{"afterItem": id}`, `{"toSection": id}`.
    public static func itemPlace(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> IdentifiedEdit.ItemPlace {
        try decode(json, limits) { context, value in
            context.placement(value, besides: [], DecodingContext.itemPlaces, required: true).map(
                DecodingContext.itemPlace)
        }
    }

    /// The body of `PUT .../items/{rowID}` and `POST .../items/{rowID}/reconfigure`:
    /// a Row whose `id`, when given, is `id`.
    public static func identifiedRow(
        from json: JSONValue, id: String, limits: ModelLimits = .default
    ) throws(ValidationError) -> Row {
        try decode(json, limits) { $0.identifiedRow($1, id: id) }
    }

    /// The body of `POST .../section-ids`: `{"section": Section}` or `{"sections":
    /// [Section]}`, each with an id (and ids on its rows), and at most one of
    /// `beforeSection`, `afterSection` (none: after the last section).
    public static func identifiedSectionInsert(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> IdentifiedEdit {
        try decode(json, limits) { context, value in
            let sections = context.oneOrMany(value, "section", "sections") {
                $0.identifiedSection($1, keepsRows: false)
            }
            let place = context.placement(
                value, besides: ["section", "sections"], DecodingContext.sectionPlaces, required: false)
            guard let sections, let place else { return nil }
            return .insertSections(sections, DecodingContext.sectionPlace(place))
        }
    }

    /// The body of `POST .../section-ids/{sectionID}/move`: exactly one of
    /// `{"beforeSection": id}`, `{"afterSection": id}`.
    public static func sectionPlace(
        from json: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> IdentifiedEdit.SectionPlace {
        try decode(json, limits) { context, value in
            context.placement(value, besides: [], DecodingContext.sectionPlaces, required: true)
                .map(DecodingContext.sectionPlace)
        }
    }

    /// The body of `PUT .../section-ids/{sectionID}`: a Section without rows (it
    /// keeps its own) whose `id`, when given, is `id`.
    public static func identifiedSection(
        from json: JSONValue, id: String, limits: ModelLimits = .default
    ) throws(ValidationError) -> Section {
        try decode(json, limits) { $0.identifiedSection($1, keepsRows: true, id: id) }
    }
}
