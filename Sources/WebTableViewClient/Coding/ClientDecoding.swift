import JSON
import TableModel

/// A change the server published: the version it made and its batch, normalised
/// (docs/API.md, "A batch").
public struct TableChange: Sendable, Equatable {
    public var version: Int
    public var batch: Batch

    public init(version: Int, batch: Batch) {
        self.version = version
        self.batch = batch
    }
}

/// A view's published update (docs/API.md, "Views", Live): for the table's
/// change to `version`, the view's batches (`steps`, one to three), applied in
/// order to the view as it was at `since` — and at every version after it up
/// to `version`, for a view does not change with every change of its table.
public struct ViewChange: Sendable, Equatable {
    public var version: Int
    public var since: Int
    public var steps: [Batch]

    public init(version: Int, since: Int, steps: [Batch]) {
        self.version = version
        self.since = since
        self.steps = steps
    }
}

/// A table's entry in `GET /api/tables`.
public struct TableSummary: Sendable, Equatable {
    public var id: String
    public var title: String?
    public var style: TableStyle
    public var sectionCount: Int
    public var rowCount: Int
    public var version: Int
}

/// A section's entry in `GET /api/tables/{t}/sections`: `numberOfRowsInSection` with its texts.
public struct SectionSummary: Sendable, Equatable {
    public var id: String?
    public var header: String?
    public var footer: String?
    public var indexTitle: String?
    public var rowCount: Int
}

/// A page of rows: `{"total", "offset", "limit", "rows"}`.
public struct RowPage: Sendable, Equatable {
    /// The section's row count.
    public var total: Int
    public var offset: Int
    public var limit: Int
    public var rows: [Row]
    /// Whether rows are left after this page.
    public var hasMore: Bool { offset + rows.count < total && limit > 0 }
}

/// The server's documents read with TableModel's own decoders, under the open
/// limits of what the server recorded (`RecordedDecoding`): what the server
/// answered it accepted, whatever limits this side would set.
enum ClientDecoding {
    static let parser = RecordedDecoding.parser

    static func change(_ value: JSONValue) throws(TableClientError) -> TableChange {
        guard case .object(let object) = value, case .integer(let version)? = object["version"],
            let batch = object["batch"]
        else { throw .unreadableAnswer("a change is not {\"version\", \"batch\"}") }
        do {
            return TableChange(
                version: version, batch: try ModelDecoder.recordedBatch(from: batch, limits: RecordedDecoding.limits))
        } catch {
            throw .unreadableAnswer("change \(version): \(error)")
        }
    }

    /// A view's `update`: `{"version", "since", "steps": [{"version", "batch"}]}`.
    static func viewChange(_ value: JSONValue) throws(TableClientError) -> ViewChange {
        guard case .object(let object) = value, case .integer(let version)? = object["version"],
            case .integer(let since)? = object["since"], case .array(let steps)? = object["steps"]
        else { throw .unreadableAnswer("a view's change is not {\"version\", \"since\", \"steps\"}") }
        var batches: [Batch] = []
        for step in steps { batches.append(try Self.change(step).batch) }
        return ViewChange(version: version, since: since, steps: batches)
    }

    static func changes(_ value: JSONValue) throws(TableClientError) -> (version: Int, changes: [TableChange]) {
        guard case .object(let object) = value, case .integer(let version)? = object["version"],
            case .array(let changes)? = object["changes"]
        else { throw .unreadableAnswer("not {\"version\", \"changes\"}") }
        var decoded: [TableChange] = []
        for change in changes { decoded.append(try Self.change(change)) }
        return (version, decoded)
    }

    static func table(_ value: JSONValue) throws(TableClientError) -> Table {
        do {
            return try RecordedDecoding.table(from: value)
        } catch {
            throw .unreadableAnswer("table: \(error)")
        }
    }

    static func row(_ value: JSONValue) throws(TableClientError) -> Row {
        do {
            return try ModelDecoder.row(from: value, limits: RecordedDecoding.limits)
        } catch {
            throw .unreadableAnswer("row: \(error)")
        }
    }

    /// `{"at": [section, row], "row": Row}`: a row read by id, and where it is.
    static func item(_ value: JSONValue) throws(TableClientError) -> (TableIndexPath, Row) {
        guard case .object(let object) = value, case .array(let at)? = object["at"], at.count == 2,
            case .integer(let section) = at[0], case .integer(let row) = at[1], let rowValue = object["row"]
        else { throw .unreadableAnswer("an item is not {\"at\": [section, row], \"row\"}") }
        return (TableIndexPath(section, row), try Self.row(rowValue))
    }

    static func summaries(_ value: JSONValue) throws(TableClientError) -> [TableSummary] {
        guard case .object(let object) = value, case .array(let tables)? = object["tables"] else {
            throw .unreadableAnswer("not {\"tables\"}")
        }
        var summaries: [TableSummary] = []
        for case .object(let table) in tables {
            guard case .string(let id)? = table["id"], let style = TableStyle(rawValue: string(table["style"]) ?? ""),
                case .integer(let sections)? = table["sectionCount"], case .integer(let rows)? = table["rowCount"],
                case .integer(let version)? = table["version"]
            else { throw .unreadableAnswer("a table summary") }
            summaries.append(
                TableSummary(
                    id: id, title: string(table["title"]), style: style, sectionCount: sections, rowCount: rows,
                    version: version))
        }
        return summaries
    }

    static func sections(_ value: JSONValue) throws(TableClientError) -> [SectionSummary] {
        guard case .object(let object) = value, case .array(let sections)? = object["sections"] else {
            throw .unreadableAnswer("not {\"version\", \"sections\"}")
        }
        var summaries: [SectionSummary] = []
        for case .object(let section) in sections {
            guard case .integer(let rows)? = section["rowCount"] else { throw .unreadableAnswer("a section summary") }
            summaries.append(
                SectionSummary(
                    id: string(section["id"]), header: string(section["header"]), footer: string(section["footer"]),
                    indexTitle: string(section["indexTitle"]), rowCount: rows))
        }
        return summaries
    }

    static func rowPage(_ value: JSONValue) throws(TableClientError) -> RowPage {
        guard case .object(let object) = value, case .integer(let total)? = object["total"],
            case .integer(let offset)? = object["offset"], case .integer(let limit)? = object["limit"],
            case .array(let rows)? = object["rows"]
        else { throw .unreadableAnswer("not a page of rows") }
        var decoded: [Row] = []
        for row in rows { decoded.append(try Self.row(row)) }
        return RowPage(total: total, offset: offset, limit: limit, rows: decoded)
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }
}
