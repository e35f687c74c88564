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

extension HTTPRequest {
    /// Whether the body is declared CSV (`text/csv`).
    var hasCSVBody: Bool { Self.mediaType(headers["Content-Type"] ?? "") == "text/csv" }

    /// 400 for a CSV option in the query that is not one (`table-id` not an
    /// id, an unknown style, …), whatever the body: a JSON body ignores them,
    /// but never a malformed one. 415 for a body declared CSV that is JSON.
    func checkCSVOptions(limits: ModelLimits) throws {
        if hasCSVBody, CSVImport.isJSON(Array(body.prefix(64))) {
            throw TableServerError.bodyNotAsDeclared(declared: "text/csv", sent: "application/json")
        }
        if let id = query["table-id"], !limits.isIdentifier(id) {
            throw TableServerError.badRequest(
                type: "bad-parameter",
                detail: "query parameter table-id must match [A-Za-z0-9_-]{1,\(limits.maxIDLength)}")
        }
        _ = try csvOptions()
    }

    /// The table the CSV body makes, with the options of `webtableview import`
    /// as query parameters (docs/API.md, "CSV"): 400 for a bad option, 422 with
    /// every problem (at most 20, then how many more) for a bad file.
    func csvTable(id: String, limits: ModelLimits) throws -> Table {
        var options = try csvOptions()
        options.tableID = id
        do throws(CSVImportError) {
            return try CSVImport.table(csv: body, name: "\(id).csv", options: options, limits: limits)
        } catch {
            let shown = error.problems.prefix(CSVImportError.reportedProblems)
            var issues = shown.map {
                ValidationIssue(path: $0.line.map { "line \($0)" } ?? "file", message: $0.message)
            }
            if error.problems.count > shown.count {
                issues.append(
                    ValidationIssue(path: "file", message: "and \(error.problems.count - shown.count) more problems"))
            }
            throw TableServerError.invalid(ValidationError(issues: issues))
        }
    }

    /// The snapshot the CSV body makes of `current`, keeping what CSV does not
    /// carry: the table's properties (unless `title` or `style` is given), and
    /// each section's id, footer and index title, matched by header, so that
    /// the diff goes row by row (docs/API.md, "CSV").
    func csvSnapshot(of current: Table, limits: ModelLimits) throws -> Table {
        let made = try csvTable(id: current.id, limits: limits)
        var unmatched = current.sections
        let sections = made.sections.map { section in
            var section = section
            if let index = unmatched.firstIndex(where: { $0.header == section.header }) {
                let old = unmatched.remove(at: index)
                section.id = old.id
                section.footer = old.footer
                if query["index-titles"] == nil { section.indexTitle = old.indexTitle }
            }
            return section
        }
        return Table(
            id: current.id, title: query["title"] != nil ? made.title : current.title,
            style: query["style"] != nil ? made.style : current.style, header: current.header, footer: current.footer,
            rowHeight: current.rowHeight, allowsSelection: current.allowsSelection,
            allowsMultipleSelection: current.allowsMultipleSelection, sections: sections)
    }

    /// `webtableview import`'s options from the query: `title`, `style`,
    /// `text`, `detail`, `id`, `section`, `sort` (`-COLUMN` descending),
    /// `sort-sections`, `index-titles`, `fields`, `no-fields`, `delimiter`.
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
            title: query["title"], text: query["text"].map(CSVColumn.init), detail: query["detail"].map(CSVColumn.init),
            id: query["id"].map(CSVColumn.init), section: query["section"].map(CSVColumn.init),
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
        return options
    }
}
