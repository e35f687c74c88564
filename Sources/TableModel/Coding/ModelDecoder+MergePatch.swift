import JSON

/// The bodies of `PATCH .../items/{rowID}` and `PATCH .../section-ids/{sectionID}`
/// (docs/API.md, "Patching a row or a section"): a JSON Merge Patch (RFC 7396)
/// of the row's or section's document as `GET` shows it, the result decoded as
/// the body of a `PUT` of it is, so every issue is reported with its JSON path.
/// An id names what is patched: a patch may repeat it, never change or remove it.
extension ModelDecoder {
    /// `row` with `patch` merged into its document; `row` is one found by its id.
    public static func patchedRow(
        _ row: Row, by patch: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> Row {
        try patched(row.jsonBytes, id: row.id ?? "", "row", by: patch, limits) { $0.identifiedRow($1, id: $2) }
    }

    /// `section`'s header, footer and index title with `patch` merged into
    /// them; the rows are not part of the document (they are edited by id), so
    /// the result has none and a reload of it keeps the section's own.
    public static func patchedSection(
        _ section: Section, by patch: JSONValue, limits: ModelLimits = .default
    ) throws(ValidationError) -> Section {
        try patched(section.propertiesJSONBytes, id: section.id ?? "", "section", by: patch, limits) {
            $0.identifiedSection($1, keepsRows: true, id: $2)
        }
    }

    /// The document `bytes` of the `what` with id `id`, `patch` merged into it
    /// (its id kept), decoded by `decode` from the merged document and the id.
    private static func patched<Value>(
        _ bytes: [UInt8], id: String, _ what: String, by patch: JSONValue, _ limits: ModelLimits,
        _ decode: (inout DecodingContext, JSONValue, String) -> Value?
    ) throws(ValidationError) -> Value {
        var context = DecodingContext(limits: limits)
        let document = try storedDocument(bytes, what)
        let merged = document.mergePatched(by: context.withoutIDChange(patch, id: id, what))
        let value = decode(&context, merged, id)
        return try context.result(value)
    }

    /// The document the model wrote of a row or section, read back.
    private static func storedDocument(_ bytes: [UInt8], _ what: String) throws(ValidationError) -> JSONValue {
        do throws(JSONParseError) {
            return try RecordedDecoding.parser.parse(bytes)
        } catch {
            throw ValidationError(issues: [
                ValidationIssue(path: "$", message: "the \(what) could not be read: \(error)")
            ])
        }
    }
}

extension DecodingContext {
    /// `patch` without its `id` member, reported when it would change or remove `id`.
    fileprivate mutating func withoutIDChange(_ patch: JSONValue, id: String, _ what: String) -> JSONValue {
        guard case .object(var members) = patch, let given = members["id"] else { return patch }
        if given != .string(id) {
            at("id") { $0.report("a patch cannot change or remove the \(what)'s id (\(Self.quote(id)))") }
        }
        members["id"] = nil
        return .object(members)
    }
}
