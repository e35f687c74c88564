import JSON
import MicroHTTP
import TableModel

/// `PATCH` of a row or a section by id (docs/API.md, "Patching a row or a
/// section"): a JSON Merge Patch (RFC 7396) changes only the members it names.
/// The patched row or section is a reload by id, so it is validated, journalled
/// and published as `PUT` of it is; a patch that changes nothing makes no new version.
struct MergePatchRoutes: RouteCollection {
    let context: RouteContext

    func register(on routes: inout RouteBuilder) {
        routes.change(.PATCH, "/api/tables/{t}/items/{rowID}", patchItem)
        routes.change(.PATCH, "/api/tables/{t}/section-ids/{sectionID}", patchSection)
    }

    func patchItem(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try request.rowID(limits)
        let patch = try Self.patch(request, of: "row")
        let limits = limits
        // What the patch says is checked before the table is (its version, If-Match): on a row of this id.
        _ = try validated { () throws(ValidationError) in
            try ModelDecoder.patchedRow(Row(id: id), by: patch, limits: limits)
        }
        return try change(request) { table in
            guard let indexPath = table.indexPath(ofRow: id), let row = table.row(at: indexPath) else {
                throw TableServerError.itemNotFound(table: table.id, id: id)
            }
            let patched = try validated { () throws(ValidationError) in
                try ModelDecoder.patchedRow(row, by: patch, limits: limits)
            }
            guard patched != row else { return Batch() }
            return try IdentifiedBatch(edits: [.reloadItems([patched])]).indexBatch(for: table)
        }
    }

    func patchSection(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try request.sectionID(limits)
        let patch = try Self.patch(request, of: "section")
        let limits = limits
        _ = try validated { () throws(ValidationError) in
            try ModelDecoder.patchedSection(Section(id: id), by: patch, limits: limits)
        }
        return try change(request) { table in
            guard let section = table.sections.first(where: { $0.id == id }) else {
                throw TableServerError.sectionIDNotFound(table: table.id, id: id)
            }
            let patched = try validated { () throws(ValidationError) in
                try ModelDecoder.patchedSection(section, by: patch, limits: limits)
            }
            let unchanged =
                patched.header == section.header && patched.footer == section.footer
                && patched.indexTitle == section.indexTitle
            guard !unchanged else { return Batch() }
            return try IdentifiedBatch(edits: [.reloadSections([patched])]).indexBatch(for: table)
        }
    }

    /// The body, a merge patch: 422 before the table is looked at (its version,
    /// `If-Match`) when it is no object, since any other value would replace
    /// the whole `thing` (RFC 7396) with what no row or section is. The routes
    /// then check the patch on a `thing` of the path's id, also before the
    /// table, so that a patch no row could take is 422 whatever the version.
    private static func patch(_ request: HTTPRequest, of thing: String) throws -> JSONValue {
        let patch = try request.jsonBody(.mergePatch)
        guard case .object = patch else {
            throw TableServerError.invalid(
                ValidationError(issues: [
                    ValidationIssue(
                        path: "$",
                        message:
                            "expected an object, found \(patch.kindDescription): a merge patch that is no object replaces the whole \(thing)"
                    )
                ]))
        }
        return patch
    }

    /// The patched value, or 422 with every issue's JSON path.
    private func validated<Value>(_ decode: () throws(ValidationError) -> Value) throws -> Value {
        do throws(ValidationError) {
            return try decode()
        } catch {
            throw TableServerError.invalid(error)
        }
    }
}
