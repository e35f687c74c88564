import JSON

/// Batches (docs/API.md, "A batch") and table properties (PATCH).
extension DecodingContext {
    mutating func batch(_ value: JSONValue) -> Batch? {
        var batch = Batch()
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "deleteSections": batch.deleteSections = context.list(value) { $0.index($1) }
            case "insertSections": batch.insertSections = context.list(value) { $0.sectionItem($1) }
            case "reloadSections": batch.reloadSections = context.list(value) { $0.sectionItem($1) }
            case "moveSections": batch.moveSections = context.list(value) { $0.sectionMove($1) }
            case "deleteRows": batch.deleteRows = context.list(value) { $0.indexPath($1) }
            case "insertRows": batch.insertRows = context.list(value) { $0.rowItem($1) }
            case "reloadRows": batch.reloadRows = context.list(value) { $0.rowItem($1) }
            case "moveRows": batch.moveRows = context.list(value) { $0.rowMove($1) }
            case "properties": batch.properties = context.properties(value)
            case "press" where context.acceptsPress: batch.press = context.press(value)
            case "animation": batch.animation = context.choice(value) ?? batch.animation
            case "expect": batch.expect = context.expectation(value)
            default: return false
            }
            return true
        }
        return isObject ? batch : nil
    }

    /// The properties a PATCH may change; `null` clears `title`, `header`, `footer`,
    /// `defaultView` and `source`. A recorded change may also set or clear
    /// `access` (a snapshot `PUT` made it), which no request's batch does.
    mutating func properties(_ value: JSONValue) -> TableProperties? {
        var properties = TableProperties()
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "title": properties.title = .some(context.optionalText(value, "title"))
            case "style": properties.style = context.choice(value)
            case "header": properties.header = .some(context.optionalText(value, "header"))
            case "footer": properties.footer = .some(context.optionalText(value, "footer"))
            case "rowHeight": properties.rowHeight = context.height(value)
            case "allowsSelection": properties.allowsSelection = context.bool(value)
            case "allowsMultipleSelection": properties.allowsMultipleSelection = context.bool(value)
            case "defaultView": properties.defaultView = .some(context.defaultView(value))
            case "source": properties.source = .some(context.source(value))
            case "access" where context.acceptsAccess: properties.access = .some(context.accessMember(value))
            default: return false
            }
            return true
        }
        return isObject ? properties : nil
    }

    /// The elements of an array, each read by `element` one level deeper.
    mutating func list<Element>(
        _ value: JSONValue, _ element: (inout DecodingContext, JSONValue) -> Element?
    ) -> [Element] {
        guard case .array(let values) = value else {
            report("expected an array, found \(value.kindDescription)")
            return []
        }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            if let decoded = at(index: index, { element(&$0, value) }) { elements.append(decoded) }
        }
        return elements
    }

    /// `{"at": 1, "section": Section}`.
    private mutating func sectionItem(_ value: JSONValue) -> Batch.SectionItem? {
        var at: Int?
        var section: Section?
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "at": at = context.index(value)
            case "section": section = context.standaloneSection(value)
            default: return false
            }
            return true
        }
        guard isObject, requireMembers(["at", "section"], of: value), let at, let section else { return nil }
        return Batch.SectionItem(at: at, section: section)
    }

    /// `{"at": [0, 2], "row": Row}`.
    private mutating func rowItem(_ value: JSONValue) -> Batch.RowItem? {
        var at: TableIndexPath?
        var row: Row?
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "at": at = context.indexPath(value)
            case "row": row = context.row(value)
            default: return false
            }
            return true
        }
        guard isObject, requireMembers(["at", "row"], of: value), let at, let row else { return nil }
        return Batch.RowItem(at: at, row: row)
    }

    /// `{"from": 3, "to": 0}`.
    private mutating func sectionMove(_ value: JSONValue) -> Batch.SectionMove? {
        var from: Int?
        var to: Int?
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "from": from = context.index(value)
            case "to": to = context.index(value)
            default: return false
            }
            return true
        }
        guard isObject, requireMembers(["from", "to"], of: value), let from, let to else { return nil }
        return Batch.SectionMove(from: from, to: to)
    }

    /// `{"from": [1, 0], "to": [0, 3]}`.
    private mutating func rowMove(_ value: JSONValue) -> Batch.RowMove? {
        var from: TableIndexPath?
        var to: TableIndexPath?
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "from": from = context.indexPath(value)
            case "to": to = context.indexPath(value)
            default: return false
            }
            return true
        }
        guard isObject, requireMembers(["from", "to"], of: value), let from, let to else { return nil }
        return Batch.RowMove(from: from, to: to)
    }

    /// `{"at": [0, 2], "id": "wifi"}`: a press of a row's accessory button; `id` only when the row has one.
    private mutating func press(_ value: JSONValue) -> Batch.Press? {
        var at: TableIndexPath?
        var id: String?
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "at": at = context.indexPath(value)
            case "id": id = context.identifier(value, "id")
            default: return false
            }
            return true
        }
        guard isObject, requireMembers(["at"], of: value), let at else { return nil }
        return Batch.Press(at: at, id: id)
    }

    /// `{"sections": 3, "rows": [5, 2, 7]}`, both optional.
    mutating func expectation(_ value: JSONValue) -> Batch.Expectation? {
        var expectation = Batch.Expectation()
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "sections": expectation.sections = context.index(value)
            case "rows": expectation.rows = context.list(value) { $0.index($1) }
            default: return false
            }
            return true
        }
        return isObject ? expectation : nil
    }

    /// A section on its own (a request body or a batch item): its row ids must
    /// differ from each other; the rest of the table is the batch engine's to check.
    mutating func standaloneSection(_ value: JSONValue) -> Section? {
        var scope = IDScope()
        return section(value, scope: &scope)
    }

    /// Reports each of `keys` that `value`, an object, lacks; answers true when none is missing.
    mutating func requireMembers(_ keys: [String], of value: JSONValue) -> Bool {
        guard case .object(let object) = value else { return false }
        var complete = true
        for key in keys where object[key] == nil {
            reportMissing(key)
            complete = false
        }
        return complete
    }
}
