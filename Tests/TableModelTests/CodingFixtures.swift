import JSON
import TableModel
import Testing

/// Documents and helpers for the decoding and encoding tests.
enum CodingFixture {
    static func parse(_ text: String) throws -> JSONValue {
        try JSONParser().parse(text)
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The issues of a refused document as `path: message` lines; records a test
    /// issue when the document is accepted.
    static func issues<Value>(
        _ text: String, limits: ModelLimits = .default,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ decode: (JSONValue, ModelLimits) throws(ValidationError) -> Value
    ) throws -> [String] {
        let json = try parse(text)
        do throws(ValidationError) {
            _ = try decode(json, limits)
            Issue.record("accepted: \(text)", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    static func tableIssues(
        _ text: String, limits: ModelLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        try issues(text, limits: limits, sourceLocation: sourceLocation) { json, limits throws(ValidationError) in
            try ModelDecoder.table(from: json, limits: limits)
        }
    }

    /// Issues of a table holding one section with `row` as its only row.
    static func rowIssues(_ row: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        try tableIssues(#"{"id": "t", "sections": [{"rows": [\#(row)]}]}"#, sourceLocation: sourceLocation)
    }

    /// A table that uses every field of every type with a non-default value.
    static let fullTable = #"""
        {
          "id": "countries", "title": "Countries", "style": "insetGrouped",
          "header": "All the countries", "footer": "That is all", "rowHeight": 52.5,
          "allowsSelection": false, "allowsMultipleSelection": true, "version": 12,
          "sections": [
            {"id": "uk", "header": "United Kingdom", "footer": "Four nations", "indexTitle": "U", "rows": [
              {"id": "england", "style": "subtitle", "text": "England", "detail": "London",
               "image": "/public/flags/england.png", "accessory": "detailDisclosureButton",
               "accessoryView": {"type": "switch", "on": true, "enabled": false},
               "selectionStyle": "none", "editingStyle": "insert", "canEdit": false, "canMove": false,
               "deleteTitle": "Remove", "indentationLevel": 2, "height": 60, "selected": true,
               "link": "https://example.com/england", "detailLink": "../info/england"},
              {"id": "scotland", "text": "Scotland"}
            ]},
            {"header": "Other countries", "rows": [
              {"style": "custom", "template": "flag-card", "fields": {"capital": "Paris", "population": 68,
               "tags": ["a", {"b": null}]}},
              {}
            ]},
            {}
          ]
        }
        """#
}
