import JSON

/// Rows (cells), as docs/FORMAT.md describes them.
extension DecodingContext {
    mutating func row(_ value: JSONValue) -> Row? {
        var row = Row()
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "id": row.id = context.optionalIdentifier(value, "id")
            case "style": row.style = context.choice(value) ?? row.style
            case "text": row.text = context.text(value, "text") ?? row.text
            case "detail": row.detail = context.optionalText(value, "detail")
            case "image": row.image = context.optionalURL(value)
            case "accessory": row.accessory = context.choice(value) ?? row.accessory
            case "accessoryView": row.accessoryView = value == .null ? nil : context.accessoryView(value)
            case "selectionStyle": row.selectionStyle = context.choice(value) ?? row.selectionStyle
            case "editingStyle": row.editingStyle = context.choice(value) ?? row.editingStyle
            case "canEdit": row.canEdit = context.bool(value) ?? row.canEdit
            case "canMove": row.canMove = context.bool(value) ?? row.canMove
            case "deleteTitle": row.deleteTitle = context.text(value, "deleteTitle") ?? row.deleteTitle
            case "indentationLevel":
                row.indentationLevel =
                    context.integer(value, in: 0...context.limits.maxIndentationLevel) ?? row.indentationLevel
            case "height": row.height = value == .null ? nil : context.height(value)
            case "selected": row.selected = context.bool(value) ?? row.selected
            case "template": row.template = context.optionalIdentifier(value, "template")
            case "fields": row.fields = context.fields(value) ?? row.fields
            case "link": row.link = context.optionalURL(value)
            case "detailLink": row.detailLink = context.optionalURL(value)
            default: return false
            }
            return true
        }
        guard isObject else { return nil }
        if row.style == .custom, case .object(let object) = value, (object["template"] ?? .null) == .null {
            report("a row of style \"custom\" needs a template")
        }
        return row
    }

    /// A row's `accessoryView` object: `type` first decides which other fields
    /// belong; a field of another type is an unknown field.
    mutating func accessoryView(_ value: JSONValue) -> AccessoryView? {
        guard case .object(let object) = value else {
            report("expected an object or null, found \(value.kindDescription)")
            return nil
        }
        guard let typeValue = object["type"] else {
            reportMissing("type")
            return nil
        }
        guard let kind = at("type", { $0.choice(typeValue, AccessoryView.Kind.self) }) else { return nil }
        var isOn = false, isEnabled = true
        var text: String?, title: String?
        members(of: value) { context, key, value in
            switch (kind, key) {
            case (_, "type"): break
            case (.switch, "on"): isOn = context.bool(value) ?? isOn
            case (.switch, "enabled"): isEnabled = context.bool(value) ?? isEnabled
            case (.badge, "text"): text = context.text(value, "text")
            case (.button, "title"): title = context.text(value, "title")
            default: return false
            }
            return true
        }
        switch kind {
        case .switch: return .switch(isOn: isOn, isEnabled: isEnabled)
        case .activityIndicator: return .activityIndicator
        case .badge:
            if object["text"] == nil { reportMissing("text") }
            return text.map(AccessoryView.badge)
        case .button:
            if object["title"] == nil { reportMissing("title") }
            return title.map { AccessoryView.button(title: $0) }
        }
    }

    /// A custom row's `fields`: an object of at most `limits.maxCustomFields`
    /// members named like ids, whose strings (at any depth) respect the text limit.
    mutating func fields(_ value: JSONValue) -> JSONObject? {
        guard case .object(let object) = value else {
            report("expected an object, found \(value.kindDescription)")
            return nil
        }
        if object.members.count > limits.maxCustomFields {
            report("fields has \(object.members.count) members; the limit is \(limits.maxCustomFields)")
        }
        let members = object.members.map { member in
            at(member.key) { context in
                if !context.isIdentifier(member.key) {
                    context.report("field name must match [A-Za-z0-9_-]{1,\(context.limits.maxIDLength)}")
                }
                return JSONMember(member.key, context.fieldValue(member.value))
            }
        }
        return JSONObject(members)
    }

    /// One value of `fields`, its strings checked. A number keeps the literal it
    /// was sent with (`2.0`, `1.50`: docs/FORMAT.md, "Numbers"), so the row reads
    /// back equal from the JSON the server sends (answers, change feed, journal).
    private mutating func fieldValue(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string:
            _ = text(value, "field")
            return value
        case .array(let elements):
            return .array(elements.enumerated().map { index, element in at(index: index) { $0.fieldValue(element) } })
        case .object(let object):
            return .object(
                JSONObject(
                    object.members.map { member in
                        JSONMember(member.key, at(member.key) { $0.fieldValue(member.value) })
                    }))
        case .number(let number) where !number.double.isFinite:
            report(Self.beyondRange)
            return value
        case .null, .bool, .integer, .number:
            return value
        }
    }
}
