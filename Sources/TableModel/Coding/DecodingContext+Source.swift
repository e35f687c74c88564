import JSON

/// A table's `source` (docs/FORMAT.md, "source"): how a file of records made it.
extension DecodingContext {
    /// The source, or nil for `null` or an invalid one (reported). Columns are
    /// named by header, or by number from 1 (`"text": 2`); every one named must
    /// be in `columns`.
    mutating func source(_ value: JSONValue) -> TableSource? {
        if case .null = value { return nil }
        var format = TableSource.Format.csv
        var columns: [String]?
        var references: [String: JSONValue] = [:]
        var fields: [(name: String, column: JSONValue)] = []
        var flags: [String: Bool] = [:]
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "format": format = context.choice(value) ?? format
            case "columns": columns = context.sourceColumns(value)
            case "text", "detail", "id", "section", "sort": references[key] = value
            case "fields":
                guard case .object(let object) = value else {
                    context.report("expected an object of field names and columns, found \(value.kindDescription)")
                    break
                }
                for member in object.members {
                    context.at(member.key) {
                        if !$0.limits.isIdentifier(member.key) {
                            $0.report("a field name must match [A-Za-z0-9_-]{1,\($0.limits.maxIDLength)}")
                        }
                    }
                    fields.append((member.key, member.value))
                }
            case "sortDescending", "sortSections", "indexTitles": flags[key] = context.bool(value)
            default: return false
            }
            return true
        }
        guard isObject else { return nil }
        guard let columns else {
            reportMissing("columns")
            return nil
        }
        func column(_ key: String, _ reference: JSONValue?, required: Bool = false) -> Int? {
            guard let reference, reference != .null else {
                if required { reportMissing(key) }
                return nil
            }
            return at(key) { $0.sourceColumn(reference, in: columns) }
        }
        if fields.count > limits.maxCustomFields {
            at("fields") { $0.report("\(fields.count) fields; a row holds at most \($0.limits.maxCustomFields)") }
        }
        let text = column("text", references["text"], required: true)
        let resolved = fields.compactMap { field in
            at("fields") { context in
                context.at(field.name) { $0.sourceColumn(field.column, in: columns) }
                    .map { TableSource.Field(column: $0, name: field.name) }
            }
        }
        let (detail, id, section, sort) = (
            column("detail", references["detail"]), column("id", references["id"]),
            column("section", references["section"]), column("sort", references["sort"])
        )
        guard let text else { return nil }
        return TableSource(
            format: format, columns: columns, text: text, detail: detail, id: id, section: section, fields: resolved,
            sort: sort, sortDescending: flags["sortDescending"] ?? false, sortSections: flags["sortSections"] ?? false,
            indexTitles: flags["indexTitles"] ?? false)
    }

    /// The file's column names: an array of at most `limits.maxColumns` strings.
    private mutating func sourceColumns(_ value: JSONValue) -> [String]? {
        guard case .array(let elements) = value else {
            report("expected an array of column names, found \(value.kindDescription)")
            return nil
        }
        guard elements.count <= limits.maxColumns else {
            report("\(elements.count) columns; the limit is \(limits.maxColumns)")
            return nil
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            guard let name = at(index: index, { $0.text(element, "a column name") }) else { return nil }
            names.append(name)
        }
        return names
    }

    /// The position of the column a reference names: a header from `columns`,
    /// or a number from 1.
    private mutating func sourceColumn(_ value: JSONValue, in columns: [String]) -> Int? {
        let reference: ColumnReference
        switch value {
        case .string(let name): reference = .named(name)
        case .integer(let number): reference = .number(number)
        case .number(let number) where Int(exactly: number.double) != nil: reference = .number(Int(number.double))
        default:
            report("expected a column's name or its number, found \(value.kindDescription)")
            return nil
        }
        guard let position = TableSource.position(of: reference, in: columns) else {
            report("no column \(reference) among the \(columns.count) columns")
            return nil
        }
        return position
    }
}

extension TableSource {
    /// Writes the source as docs/FORMAT.md shows it, naming each column by its
    /// header (by its number where two columns share one).
    public func writeJSON(to writer: inout JSONWriter) {
        func column(_ key: String, _ index: Int?) {
            writer.key(key)
            switch index.map(reference(to:)) {
            case nil: writer.null()
            case .named(let name): writer.string(name)
            case .number(let number): writer.integer(number)
            }
        }
        writer.beginObject()
        writer.key("format"); writer.string(format.rawValue)
        writer.key("columns")
        writer.beginArray()
        for name in columns { writer.string(name) }
        writer.endArray()
        column("text", text)
        column("detail", detail)
        column("id", id)
        column("section", section)
        writer.key("fields")
        writer.beginObject()
        for field in fields { column(field.name, field.column) }
        writer.endObject()
        column("sort", sort)
        writer.key("sortDescending"); writer.bool(sortDescending)
        writer.key("sortSections"); writer.bool(sortSections)
        writer.key("indexTitles"); writer.bool(indexTitles)
        writer.endObject()
    }
}
