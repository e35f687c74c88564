import JSON

/// A table's `defaultView` (docs/FORMAT.md, "Table"): `{"sort": …, "group": …}`,
/// each in the syntax of the query parameter of the same name.
extension DecodingContext {
    /// The default view, or nil for `null`, an empty object or an invalid one (reported).
    mutating func defaultView(_ value: JSONValue) -> TableQuery? {
        if case .null = value { return nil }
        var parameters: [String: String] = [:]
        members(of: value) { context, key, value in
            guard key == "sort" || key == "group" else { return false }
            if let text = context.text(value, key) { parameters[key] = text }
            return true
        }
        do throws(TableQueryError) {
            let view = try TableQuery(parameters: parameters)
            return view.isEmpty ? nil : view
        } catch {
            at(error.parameter) { $0.report(error.detail) }
            return nil
        }
    }
}

extension TableQuery {
    /// Writes a default view: `{"sort": …, "group": …}`, the members it sets.
    public func writeDefaultViewJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        if !sort.isEmpty { writer.key("sort"); writer.string(sort.map(\.name).joined(separator: ",")) }
        if let group { writer.key("group"); writer.string(group.name) }
        writer.endObject()
    }
}
