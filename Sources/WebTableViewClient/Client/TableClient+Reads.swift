import Foundation
import JSON
import TableModel

extension TableClient {
    /// `GET /api/tables`: every table, without its rows.
    public func tables() async throws(TableClientError) -> [TableSummary] {
        try ClientDecoding.summaries(try await json(Call(method: "GET", path: "/api/tables")))
    }

    /// `GET /api/tables/{t}`: the whole table at its version. `query` is passed
    /// as it is: a view's `q`, `filter[…]`, `sort` and `group` (docs/API.md).
    public func table(_ id: String, query: [URLQueryItem] = []) async throws(TableClientError) -> Table {
        try ClientDecoding.table(try await json(Call(method: "GET", path: Self.tablePath(id), query: query)))
    }

    /// `table(_:query:)` and the server's life its `ETag` names (`"k3f9a2c1.7"`:
    /// docs/API.md, "Caching"); nil for a server whose versions outlive it.
    func tableInLife(_ id: String, query: [URLQueryItem] = []) async throws(TableClientError) -> (Table, String?) {
        let answer = try await perform(Call(method: "GET", path: Self.tablePath(id), query: query))
        let table: Table
        do {
            table = try ClientDecoding.table(try ClientDecoding.parser.parse(answer.body))
        } catch {
            throw .unreadableAnswer("GET \(Self.tablePath(id)): \(error)")
        }
        return (table, answer.header("ETag").flatMap(Self.life(ofTag:)))
    }

    /// The life of an entity tag or event id (`"k3f9a2c1.7-v3f2a"`, `k3f9a2c1.7`): what comes before its dot.
    static func life(ofTag tag: String) -> String? {
        let bare = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
        let quoted = bare.hasPrefix("\"") ? bare.dropFirst() : bare
        guard let dot = quoted.firstIndex(of: ".") else { return nil }
        return String(quoted[..<dot])
    }

    /// `GET /api/tables/{t}/sections`: `numberOfSections`, and each section's texts and row count.
    public func sections(of id: String) async throws(TableClientError) -> [SectionSummary] {
        try ClientDecoding.sections(try await json(Call(method: "GET", path: Self.tablePath(id) + "/sections")))
    }

    /// `GET /api/tables/{t}/sections/{s}/rows?offset=&limit=`: a page of at most
    /// `limit` rows (the server allows 1,000).
    public func rows(
        of id: String, section: Int, offset: Int = 0, limit: Int = 100
    ) async throws(TableClientError) -> RowPage {
        let query = [
            URLQueryItem(name: "offset", value: String(offset)), URLQueryItem(name: "limit", value: String(limit)),
        ]
        let call = Call(method: "GET", path: Self.tablePath(id) + "/sections/\(section)/rows", query: query)
        return try ClientDecoding.rowPage(try await json(call))
    }

    /// `GET /api/tables/{t}/sections/{s}/rows/{r}`: `cellForRowAt`.
    public func row(of id: String, at indexPath: TableIndexPath) async throws(TableClientError) -> Row {
        let path = Self.tablePath(id) + "/sections/\(indexPath.section)/rows/\(indexPath.row)"
        return try ClientDecoding.row(try await json(Call(method: "GET", path: path)))
    }

    /// `GET /api/tables/{t}/items/{id}`: the row with id `rowID` and its index
    /// path in the table (`itemIdentifier(for:)`, `indexPath(for:)`); nil when no
    /// row has it. A `404` is asked about once more, by `HEAD /api/tables/{t}/sections`,
    /// to tell a missing row (nil) from a missing table (thrown, `notFound`).
    public func row(of id: String, withID rowID: String) async throws(TableClientError) -> (TableIndexPath, Row)? {
        let item: JSONValue
        do throws(TableClientError) {
            item = try await json(Call(method: "GET", path: Self.tablePath(id) + "/items/\(rowID)"))
        } catch .problem(let problem) where problem.kind == .notFound {
            // A HEAD answer has no body: its 404 is thrown as the GET's problem, which has one.
            do throws(TableClientError) {
                _ = try await perform(Call(method: "HEAD", path: Self.tablePath(id) + "/sections"))
            } catch .problem(let head) where head.status == 404 {
                throw .problem(problem)
            }
            return nil
        }
        return try ClientDecoding.item(item)
    }

    /// `GET /api/tables/{t}/changes?since=`: the changes after `version` the server still keeps.
    public func changes(of id: String, since version: Int) async throws(TableClientError) -> [TableChange] {
        let call = Call(
            method: "GET", path: Self.tablePath(id) + "/changes",
            query: [URLQueryItem(name: "since", value: String(version))])
        return try ClientDecoding.changes(try await json(call)).changes
    }
}
