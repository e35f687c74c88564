import JSON
import MicroHTTP
import TableImport
import TableModel

/// Reading what a request says: its path parameters, query, preconditions and JSON body.
extension HTTPRequest {
    /// The table id from the path.
    var tableID: String { parameters["t"] ?? "" }

    /// A non-negative integer path parameter (`s`, `r`); 400 when it is not one.
    func index(_ name: String) throws -> Int {
        guard let text = parameters[name], let value = Int(text), value >= 0, text.utf8.allSatisfy(isASCIIDigit) else {
            throw TableServerError.badRequest(
                type: "bad-parameter", detail: "\"\(parameters[name] ?? "")\" is not a position (a whole number from 0)"
            )
        }
        return value
    }

    /// The row's index path from the path parameters `{s}` and `{r}`; 400 when either is not a position.
    func indexPath() throws -> TableIndexPath {
        TableIndexPath(try index("s"), try index("r"))
    }

    /// A non-negative integer query parameter, or `defaultValue` when absent.
    func queryInteger(_ name: String, default defaultValue: Int, max: Int = .max) throws -> Int {
        guard let text = query[name], !text.isEmpty else { return defaultValue }
        guard text.utf8.allSatisfy(isASCIIDigit), let value = Int(text), value <= max else {
            throw TableServerError.badRequest(
                type: "bad-parameter",
                detail:
                    "query parameter \(name) must be a whole number from 0 to \(max == .max ? "\(Int.max)" : "\(max)")")
        }
        return value
    }

    /// `?since=` as a cursor of `life` (`ServerLife.version(ofCursor:)`): a
    /// version, bare or `life.version`; 0 when absent, 400 when neither.
    func sinceCursor(in life: ServerLife) throws -> Int {
        guard let text = query["since"], !text.isEmpty else { return 0 }
        guard let version = life.version(ofCursor: Substring(text)), version >= 0 else {
            throw TableServerError.badRequest(
                type: "bad-parameter",
                detail: "query parameter since must be a version (a whole number) or an event id (life.version)")
        }
        return version
    }

    var ifMatch: String? { headers["If-Match"] }

    /// `?animation=` of a single operation, as the `with:` of `insertRows(at:with:)`;
    /// nil when absent, 400 when it names no `UITableView.RowAnimation`.
    func animation() throws -> RowAnimation? {
        guard let text = query["animation"] else { return nil }
        guard let animation = RowAnimation(rawValue: text) else {
            let names = RowAnimation.allCases.map(\.rawValue).joined(separator: ", ")
            throw TableServerError.badRequest(
                type: "bad-parameter", detail: "query parameter animation must be one of \(names)")
        }
        return animation
    }

    /// The body parsed as JSON: 415 naming `accepted` unless it is declared
    /// JSON, 400 when malformed — or 415 naming `text/csv` when the route takes
    /// CSV too and the body is CSV sent as JSON. A number beyond `Double`'s
    /// range reads as infinity, which the model's decoders refuse with its JSON
    /// path (422).
    func jsonBody(_ accepted: BodyTypes = .json) throws -> JSONValue {
        let type = Self.mediaType(headers["Content-Type"] ?? "")
        guard BodyTypes.isJSON(type) else {
            throw TableServerError.unsupportedMediaType(type, accepted)
        }
        do throws(JSONParseError) {
            return try JSONParser(numbersBeyondRangeAreInfinite: true).parse(body)
        } catch {
            if accepted == .jsonOrCSV, !body.isEmpty, !CSVImport.isJSON(Array(body.prefix(64))) {
                throw TableServerError.bodyNotAsDeclared(declared: type, sent: "text/csv")
            }
            throw TableServerError.badRequest(type: "malformed-json", detail: "\(error)")
        }
    }

    /// The media type of a `Content-Type` value, lowercased, without its parameters.
    static func mediaType(_ contentType: String) -> String {
        // What nearly every edit sends, answered without slicing or trimming.
        if contentType == "application/json" {
            return contentType
        }
        let type = contentType.utf8.firstIndex(of: UInt8(ascii: ";")).map { contentType[..<$0] } ?? contentType[...]
        let trimmed = type.trimmingSpaces()
        return trimmed.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
            ? trimmed.lowercased() : trimmed
    }

    /// The body decoded with one of the model's strict decoders (422 on invalid
    /// content); its types are `accepted` (`jsonBody`).
    func decodeBody<T>(
        _ accepted: BodyTypes = .json, _ decode: (JSONValue) throws(ValidationError) -> T
    ) throws -> T {
        let value = try jsonBody(accepted)
        do throws(ValidationError) {
            return try decode(value)
        } catch {
            throw TableServerError.invalid(error)
        }
    }
}

/// Whether a UTF-8 byte is one of `0`…`9`.
func isASCIIDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

/// Reading ids from the path: `{rowID}` and `{sectionID}` of the routes by id.
extension HTTPRequest {
    /// The row id from the path (`{rowID}`); 400 when no row can have it.
    func rowID(_ limits: ModelLimits) throws -> String {
        try identifier("rowID", limits)
    }

    /// The section id from the path (`{sectionID}`); 400 when no section can have it.
    func sectionID(_ limits: ModelLimits) throws -> String {
        try identifier("sectionID", limits)
    }

    /// A path parameter that names an item by its id: refused before the table
    /// is looked at when it is no id at all, so that the answer does not depend
    /// on the table's version (`If-Match`), as a position that is no number.
    private func identifier(_ name: String, _ limits: ModelLimits) throws -> String {
        let text = parameters[name] ?? ""
        guard limits.isIdentifier(text) else {
            throw TableServerError.badRequest(
                type: "bad-parameter",
                detail: "\"\(text)\" is not an id: ids match [A-Za-z0-9_-]{1,\(limits.maxIDLength)}")
        }
        return text
    }
}
