/// The fields a view names, held against those a table's rows have, so that a
/// misspelt `fields.popul` is an error rather than a view of nothing
/// (docs/API.md, "Views").
extension TableQuery {
    /// The field names the view's filters, sort and group name, in that order, once each.
    public var fieldNames: [String] {
        var names: [String] = []
        for key in filters.map(\.key) + sort.map(\.key) + (group.map { [$0.key] } ?? []) {
            if case .field(let name) = key, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The field names the view names that no row of `table` has; none for a
    /// table without rows, whose rows may be yet to come.
    ///
    /// Reads rows until every name is found: a field most rows have is found in
    /// the first, and only a name no row has costs a pass over the table.
    public func fieldsMissing(from table: Table) -> [String] {
        var missing = Set(fieldNames)
        guard !missing.isEmpty, table.rowCount > 0 else { return [] }
        for section in table.sections {
            for row in section.rows {
                let fields = row.fields
                if fields.isEmpty { continue }
                for member in fields.members { missing.remove(member.key) }
                if missing.isEmpty { return [] }
            }
        }
        return fieldNames.filter(missing.contains)
    }
}

extension Table {
    /// Every field name of the table's rows, in the order the names first appear.
    public var fieldNames: [String] {
        var seen: Set<String> = []
        var names: [String] = []
        for section in sections {
            for row in section.rows {
                for key in row.fields.keys where seen.insert(key).inserted { names.append(key) }
            }
        }
        return names
    }
}
