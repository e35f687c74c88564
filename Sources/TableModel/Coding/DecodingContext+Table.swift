import JSON

/// Tables and sections, as docs/FORMAT.md describes them.
extension DecodingContext {
    /// A Table document; `version` is accepted (so that a fetched table can be sent
    /// back) and ignored. A missing `id` is `defaultID`, when there is one.
    mutating func table(_ value: JSONValue, defaultID: String? = nil) -> Table? {
        var table = Table(id: "")
        var id: String?
        var sections: [Section] = []
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "id": id = context.identifier(value, "id")
            case "title": table.title = context.optionalText(value, "title")
            case "style": table.style = context.choice(value) ?? table.style
            case "header": table.header = context.optionalText(value, "header")
            case "footer": table.footer = context.optionalText(value, "footer")
            case "rowHeight": table.rowHeight = context.height(value) ?? table.rowHeight
            case "allowsSelection": table.allowsSelection = context.bool(value) ?? table.allowsSelection
            case "allowsMultipleSelection":
                table.allowsMultipleSelection = context.bool(value) ?? table.allowsMultipleSelection
            case "defaultView": table.defaultView = context.defaultView(value)
            case "source": table.source = context.source(value)
            case "access": table.access = context.accessMember(value)
            case "version": _ = context.index(value)
            case "sections": sections = context.sections(value)
            default: return false
            }
            return true
        }
        guard isObject, case .object(let object) = value else { return nil }
        if object["id"] == nil {
            id = defaultID
            if defaultID == nil { reportMissing("id") }
        }
        guard let id else { return nil }
        return Table(
            id: id, title: table.title, style: table.style, header: table.header, footer: table.footer,
            rowHeight: table.rowHeight, allowsSelection: table.allowsSelection,
            allowsMultipleSelection: table.allowsMultipleSelection, defaultView: table.defaultView,
            source: table.source, access: table.access, sections: sections)
    }

    /// One Table document or an array of them (a `--data` file). Table ids must
    /// differ from each other.
    mutating func tables(_ value: JSONValue) -> [Table]? {
        guard case .array(let elements) = value else {
            return table(value).map { [$0] }
        }
        var tables: [Table] = []
        var firstIndex: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            at(index: index) { context in
                guard let table = context.table(element) else { return }
                if let first = firstIndex[table.id] {
                    context.at("id") { $0.report("duplicate table id \(Self.quote(table.id)) (also at $[\(first)])") }
                } else {
                    firstIndex[table.id] = index
                }
                tables.append(table)
            }
        }
        return tables
    }

    /// A table's sections; their ids, and their rows' ids, must differ from each other.
    /// The ids seen are let go on return, before the table builds its `TableIDIndex`:
    /// a million rows' ids are tens of MiB, held twice otherwise (the peak while
    /// loading, docs/perf-history/fixed-in-the-product.md, *Memory under edits*).
    mutating func sections(_ value: JSONValue) -> [Section] {
        guard case .array(let elements) = value else {
            report("expected an array, found \(value.kindDescription)")
            return []
        }
        var scope = IDScope()
        var sections: [Section] = []
        sections.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if let section = at(index: index, { $0.section(element, scope: &scope) }) {
                sections.append(section)
            }
        }
        return sections
    }

    /// A section and its rows; its id and its rows' ids are checked against `scope`.
    mutating func section(_ value: JSONValue, scope: inout IDScope) -> Section? {
        let number = scope.beginSection(at: path)
        var section = Section()
        let isObject = members(of: value) { context, key, value in
            switch key {
            case "id":
                section.id = context.optionalIdentifier(value, "id")
                if let id = section.id, let first = scope.register(sectionID: id, section: number) {
                    context.report("duplicate section id \(Self.quote(id)) (also at \(first))")
                }
            case "header": section.header = context.optionalText(value, "header")
            case "footer": section.footer = context.optionalText(value, "footer")
            case "indexTitle": section.indexTitle = context.optionalText(value, "indexTitle")
            case "groupValue" where context.acceptsGroupValue: section.groupValue = value
            case "rows": section.rows = context.rowList(value, scope: &scope, section: number)
            default: return false
            }
            return true
        }
        return isObject ? section : nil
    }

    /// The rows of section number `section` of `scope`.
    mutating func rows(_ value: JSONValue, scope: inout IDScope, section: Int) -> [Row] {
        var rows: [Row] = []
        forEachRow(value, scope: &scope, section: section, reserve: { rows.reserveCapacity($0) }) { rows.append($0) }
        return rows
    }

    /// The rows of section number `section` of `scope`, straight into a `RowList`'s
    /// leaves (`RowList.Builder`: no array of every row on the way).
    mutating func rowList(_ value: JSONValue, scope: inout IDScope, section: Int) -> RowList {
        var builder = RowList.Builder(expectedCount: 0)
        forEachRow(value, scope: &scope, section: section, reserve: { builder = RowList.Builder(expectedCount: $0) }) {
            builder.append($0)
        }
        return builder.build()
    }

    /// Decodes each row of `value`, an array, in order; `reserve` first gets its length.
    private mutating func forEachRow(
        _ value: JSONValue, scope: inout IDScope, section: Int,
        reserve: (Int) -> Void, body: (Row) -> Void
    ) {
        guard case .array(let elements) = value else {
            report("expected an array, found \(value.kindDescription)")
            return
        }
        reserve(elements.count)
        scope.expectRows(elements.count)
        for (index, element) in elements.enumerated() {
            at(index: index) { context in
                guard let row = context.row(element) else { return }
                if let id = row.id, let first = scope.register(rowID: id, section: section, row: index) {
                    context.at("id") { $0.report("duplicate row id \(Self.quote(id)) (also at \(first))") }
                }
                body(row)
            }
        }
    }
}
