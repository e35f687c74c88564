import JSON
import MicroHTTP
import TableImport
import TableModel

extension Respond {
    /// A table's rows as CSV (docs/API.md, "CSV"), sent in pieces as they are
    /// written; `download` adds `Content-Disposition: attachment` for a link.
    /// The entity tag is the version's with `-csv`, so that a cache never takes
    /// the JSON for it.
    static func csv<Rows>(_ export: CSVExport<Rows>, tableID: String, etag: String, download: Bool) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.reserveCapacity(6)
        headers.add("Content-Type", TableFormat.csvType)
        headers.add("ETag", etag)
        headers.add("Cache-Control", revalidate)
        // One Vary for both: compression adds Accept-Encoding only when it is not named.
        headers.add("Vary", "Accept, Accept-Encoding")
        if download { headers.add("Content-Disposition", "attachment; filename=\"\(tableID).csv\"") }
        return HTTPResponse(status: 200, headers: headers, body: .chunks(ChunkProducer(pieces: export)))
    }

    /// 406: the request's `Accept` names neither JSON nor CSV.
    static func notAcceptable(_ accept: String) -> HTTPResponse {
        .problem(
            status: 406, type: "not-acceptable",
            detail: "a table is answered as application/json or text/csv (Accept: \(accept))")
    }
}

/// A body of records: a CSV file, or a JSON array of records.
enum RecordsBody {
    case csv([UInt8])
    case json(JSONValue)

    var isCSV: Bool {
        if case .csv = self { return true }
        return false
    }
}

extension HTTPRequest {
    /// Whether the body is declared CSV (`text/csv`).
    var hasCSVBody: Bool { Self.mediaType(headers["Content-Type"] ?? "") == "text/csv" }

    /// The body as records: a CSV body (in `?encoding=`, UTF-8 by default), or
    /// a JSON array of records; nil for a JSON Table document.
    func recordsBody() throws -> RecordsBody? {
        if hasCSVBody { return .csv(body) }
        guard body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "[") else { return nil }
        let value = try jsonBody(.jsonOrCSV)
        return CSVImport.isRecords(value) ? .json(value) : nil
    }

    /// 400 for a CSV option in the query that is not one (`table-id` not an
    /// id, an unknown style, …), whatever the body: a JSON body ignores them,
    /// but never a malformed one. 415 for a body declared CSV that is JSON.
    func checkCSVOptions(limits: ModelLimits) throws {
        if hasCSVBody, CSVImport.isJSON(Array(body.prefix(64))), (try? JSONParser().parse(body)) != nil {
            throw TableServerError.bodyNotAsDeclared(declared: "text/csv", sent: "application/json")
        }
        if let id = query["table-id"], !limits.isIdentifier(id) {
            throw TableServerError.badRequest(
                type: "bad-parameter",
                detail: "query parameter table-id must match [A-Za-z0-9_-]{1,\(limits.maxIDLength)}")
        }
        _ = try csvOptions()
    }

    /// Whether the query names a mapping of its own: which columns are what.
    private var namesAMapping: Bool {
        ["text", "detail", "id", "section", "sort", "fields", "no-fields", "sort-sections", "index-titles"]
            .contains { query[$0] != nil }
    }

    /// The table the records make, with the options of `webtableview import`
    /// as query parameters (docs/API.md, "CSV"), or else `source`'s mapping:
    /// 400 for a bad option, 422 with every problem (at most 20, then how
    /// many more) for a bad file.
    func recordsTable(_ records: RecordsBody, id: String, remembering source: TableSource?, limits: ModelLimits)
        throws -> Table
    {
        var options = try csvOptions()
        options.tableID = id
        if let source, !namesAMapping { options.remember(source) }
        do throws(CSVImportError) {
            switch records {
            case .csv(let bytes):
                return try CSVImport.table(csv: bytes, name: "\(id).csv", options: options, limits: limits)
            case .json(let value):
                return try CSVImport.table(records: value, name: id, options: options, limits: limits)
            }
        } catch {
            let shown = error.problems.prefix(CSVImportError.reportedProblems)
            var issues = shown.map { ValidationIssue(path: $0.place ?? "file", message: $0.message) }
            if error.problems.count > shown.count {
                issues.append(
                    ValidationIssue(path: "file", message: "and \(error.problems.count - shown.count) more problems"))
            }
            throw TableServerError.invalid(ValidationError(issues: issues))
        }
    }

    /// The snapshot the records make of `current`, made the way `current` was
    /// (its `source`) unless the query names a mapping, which the table then
    /// remembers (one made from JSON remembers none unless named), keeping what a file
    /// does not carry: the table's properties (unless `title` or `style` is
    /// given); each section's id, footer and index title, matched by header;
    /// and each row's style, accessory and other properties, matched by id, so
    /// that the diff goes row by row and a file sent back unchanged changes
    /// nothing (docs/API.md, "CSV").
    func recordsSnapshot(_ records: RecordsBody, of current: Table, limits: ModelLimits) throws -> Table {
        let made = try recordsTable(records, id: current.id, remembering: current.source, limits: limits)
        var unmatched = current.sections
        var rowsByID: [String: Row] = [:]
        for section in current.sections {
            for row in section.rows { if let id = row.id { rowsByID[id] = row } }
        }
        let sections = made.sections.map { section in
            var section = section
            if let index = unmatched.firstIndex(where: { $0.header == section.header }) {
                let old = unmatched.remove(at: index)
                section.id = old.id
                section.footer = old.footer
                if query["index-titles"] == nil { section.indexTitle = old.indexTitle }
            }
            section.rows = RowList(
                section.rows.map { row in row.id.flatMap { rowsByID[$0] }.map(row.keepingWhatFilesDoNotCarry) ?? row })
            return section
        }
        return Table(
            id: current.id, title: query["title"] != nil ? made.title : current.title,
            style: query["style"] != nil ? made.style : current.style, header: current.header, footer: current.footer,
            rowHeight: current.rowHeight, allowsSelection: current.allowsSelection,
            allowsMultipleSelection: current.allowsMultipleSelection, defaultView: current.defaultView,
            source: current.source == nil && !namesAMapping ? nil : made.source, sections: sections)
    }

    /// `webtableview import`'s options from the query: `title`, `style`,
    /// `text`, `detail`, `id`, `section`, `sort` (`-COLUMN` descending),
    /// `sort-sections`, `index-titles`, `fields`, `no-fields`, `delimiter`, `encoding`.
    private func csvOptions() throws -> CSVImportOptions {
        func bad(_ detail: String) -> TableServerError { .badRequest(type: "bad-parameter", detail: detail) }
        func flag(_ name: String) throws -> Bool {
            switch query[name] {
            case nil, "false": return false
            case "", "true": return true
            default: throw bad("query parameter \(name) must be true or false")
            }
        }
        var options = CSVImportOptions(
            title: query["title"], text: query["text"].map(ColumnReference.init),
            detail: query["detail"].map(ColumnReference.init),
            id: query["id"].map(ColumnReference.init), section: query["section"].map(ColumnReference.init),
            sortSections: try flag("sort-sections"), indexTitles: try flag("index-titles"))
        if let style = query["style"] {
            guard let parsed = TableStyle(rawValue: style) else {
                throw bad(
                    "query parameter style must be one of \(TableStyle.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            options.style = parsed
        }
        if let sort = query["sort"] { options.setSort(sort) }
        if try flag("no-fields") {
            options.fields = .none
        } else if let fields = query["fields"] {
            options.fields = CSVImportOptions.fieldColumns(fields)
        }
        if let delimiter = query["delimiter"] {
            guard let byte = CSVDelimiter.named(delimiter) else {
                throw bad("query parameter delimiter must be one character (not a quote or a line break), or tab")
            }
            options.delimiter = byte
        }
        if let encoding = query["encoding"] {
            guard let named = TextEncoding(named: encoding) else {
                throw bad(
                    "query parameter encoding must be one of \(TextEncoding.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            options.encoding = named
        }
        return options
    }
}
