import JSON

/// Edits by id (docs/API.md, "Edits by id"): `{"edits": [...], "animation", "expect"}`,
/// each edit an object with one verb member and its placement.
extension DecodingContext {
    /// The verbs of an edit and the placement members each takes: `required`
    /// when exactly one of them must be given, otherwise at most one.
    private static let editForms: [String: (places: [String], required: Bool)] = [
        "insertItems": (["beforeItem", "afterItem"], true),
        "appendItems": (["toSection"], false),
        "deleteItems": ([], false),
        "moveItem": (itemPlaces, true),
        "reloadItems": ([], false),
        "reconfigureItems": ([], false),
        "insertSections": (sectionPlaces, true),
        "appendSections": ([], false),
        "deleteSections": ([], false),
        "moveSection": (sectionPlaces, true),
        "reloadSections": ([], false),
    ]
    static let itemPlaces = ["beforeItem", "afterItem", "toSection"]
    static let sectionPlaces = ["beforeSection", "afterSection"]

    mutating func identifiedBatch(_ value: JSONValue) -> IdentifiedBatch? {
        var edits: [IdentifiedEdit]?
        var animation = RowAnimation.automatic
        var expect: Batch.Expectation?
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "edits": edits = context.list(value) { $0.identifiedEdit($1) }
            case "animation": animation = context.choice(value) ?? animation
            case "expect": expect = context.expectation(value)
            default: return false
            }
            return true
        }
        guard isObject, requireMembers(["edits"], of: value), let edits else { return nil }
        return IdentifiedBatch(edits: edits, animation: animation, expect: expect)
    }

    /// One edit: `{"moveItem": "a1", "beforeItem": "a5"}`.
    private mutating func identifiedEdit(_ value: JSONValue) -> IdentifiedEdit? {
        guard case .object(let object) = value else {
            report("expected an object, found \(value.kindDescription)")
            return nil
        }
        let verbs = object.members.map(\.key).filter { Self.editForms[$0] != nil }
        guard verbs.count == 1, let verb = verbs.first, let form = Self.editForms[verb], let operand = object[verb]
        else {
            let known = Self.editForms.keys.sorted().map(Self.quote).joined(separator: ", ")
            report(
                verbs.isEmpty
                    ? "missing the edit: one of \(known)"
                    : "give one edit per object, found \(verbs.map(Self.quote).joined(separator: " and "))")
            return nil
        }
        let placed = placement(value, besides: [verb], form.places, required: form.required)
        let place = placed ?? nil
        let edit: IdentifiedEdit? = at(verb) { context in
            switch verb {
            case "insertItems", "appendItems":
                return .insertItems(context.identifiedRows(operand), Self.itemPlace(place))
            case "deleteItems": return .deleteItems(context.list(operand) { $0.identifier($1, "id") })
            case "moveItem": return context.identifier(operand, "id").map { .moveItem($0, Self.itemPlace(place)) }
            case "reloadItems": return .reloadItems(context.identifiedRows(operand))
            case "reconfigureItems": return .reconfigureItems(context.identifiedRows(operand))
            case "insertSections", "appendSections":
                return .insertSections(
                    context.list(operand) { $0.identifiedSection($1, keepsRows: false) }, Self.sectionPlace(place))
            case "deleteSections": return .deleteSections(context.list(operand) { $0.identifier($1, "id") })
            case "moveSection":
                return context.identifier(operand, "id").map { .moveSection($0, Self.sectionPlace(place)) }
            default: return .reloadSections(context.list(operand) { $0.identifiedSection($1, keepsRows: true) })
            }
        }
        return placed == nil ? nil : edit
    }

    /// The placement member of an edit (every member but those in `others`, which
    /// are read elsewhere): one of `keys`, exactly one when `required`. Answers
    /// `.some(nil)` when none is given and none is needed, nil after an issue.
    mutating func placement(
        _ value: JSONValue, besides others: [String], _ keys: [String], required: Bool
    ) -> (key: String, id: String)?? {
        let issuesBefore = issues.count
        var found: [(key: String, id: String)] = []
        var valid = members(of: value) { context, key, value in
            if others.contains(key) { return true }
            guard keys.contains(key) else { return false }
            if let id = context.identifier(value, key) { found.append((key, id)) }
            return true
        }
        if found.count > 1 {
            report("give one of \(keys.map(Self.quote).joined(separator: ", ")), not several")
            valid = false
        } else if found.isEmpty && required && issues.count == issuesBefore {
            report("missing where the edit goes: one of \(keys.map(Self.quote).joined(separator: ", "))")
            valid = false
        }
        return valid && issues.count == issuesBefore ? .some(found.first) : nil
    }

    static func itemPlace(_ place: (key: String, id: String)?) -> IdentifiedEdit.ItemPlace {
        switch place {
        case ("beforeItem", let id)?: .before(id)
        case ("afterItem", let id)?: .after(id)
        case let place?: .end(section: place.id)
        case nil: .end(section: nil)
        }
    }

    static func sectionPlace(_ place: (key: String, id: String)?) -> IdentifiedEdit.SectionPlace {
        switch place {
        case ("beforeSection", let id)?: .before(id)
        case ("afterSection", let id)?: .after(id)
        default: .end
        }
    }

    /// `{one: Element}` or `{many: [Element]}`, exactly one of the two.
    mutating func oneOrMany<Element>(
        _ value: JSONValue, _ one: String, _ many: String, _ element: (inout DecodingContext, JSONValue) -> Element?
    ) -> [Element]? {
        guard case .object(let object) = value else { return nil }
        switch (object[one], object[many]) {
        case (nil, nil):
            report("missing required field \(Self.quote(one)) or \(Self.quote(many))")
        case (.some, .some):
            report("give either \(Self.quote(one)) or \(Self.quote(many)), not both")
        case (let single?, nil):
            return at(one) { element(&$0, single) }.map { [$0] }
        case (nil, let elements?):
            return at(many) { $0.list(elements, element) }
        }
        return nil
    }

    /// Rows edited by id: each must have one.
    mutating func identifiedRows(_ value: JSONValue) -> [Row] {
        list(value) { $0.identifiedRow($1) }
    }

    /// The id of a `what` ("row", "section") edited by id: its own, or the
    /// path's when it gives none; reported when neither is there or they differ.
    private mutating func requiredID(_ own: String?, path: String?, _ what: String) -> String? {
        switch (own, path) {
        case (nil, nil): report("missing required field \"id\": a \(what) edited by id needs one")
        case (let own?, let path?) where own != path:
            at("id") { $0.report("\(Self.quote(own)) does not match the \(what) in the path (\(Self.quote(path)))") }
        default: break
        }
        return own ?? path
    }

    /// A row edited by id; when `id` is given (the path names the row), the row's
    /// own `id` may be left out but must not differ.
    mutating func identifiedRow(_ value: JSONValue, id: String? = nil) -> Row? {
        guard var row = row(value) else { return nil }
        row.id = requiredID(row.id, path: id, "row")
        return row
    }

    /// A section edited by id: it needs an id (or takes `id`, the path's), and
    /// so do its rows. A reloaded section (`keepsRows`) keeps the rows it has,
    /// so it must not give any.
    mutating func identifiedSection(_ value: JSONValue, keepsRows: Bool, id: String? = nil) -> Section? {
        guard var section = standaloneSection(value) else { return nil }
        section.id = requiredID(section.id, path: id, "section")
        guard case .object(let object) = value else { return section }
        if keepsRows, object["rows"] != nil {
            at("rows") { $0.report("a section reloaded by id keeps its rows; edit them by id") }
        }
        for (index, row) in section.rows.enumerated() where row.id == nil {
            at("rows") {
                $0.at(index: index) { $0.report("missing required field \"id\": a row edited by id needs one") }
            }
        }
        return section
    }
}
