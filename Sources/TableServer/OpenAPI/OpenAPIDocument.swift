/// The OpenAPI 3.1 description of the HTTP interface, served at `/api/openapi.json`.
///
/// Written by hand, in two parts (paths and components); a test checks that every
/// route the server registers is described here and every path here is served,
/// and `make test-openapi` validates it with openapi-spec-validator.
enum OpenAPIDocument {
    /// The document as served, ending with a line feed like every JSON answer.
    static let bytes: [UInt8] = Array((text + "\n").utf8)

    static let text = """
        {"openapi":"3.1.0",
        "info":{"title":"WebTableView","version":"1.0.0",
        "description":"UIKit's table view, served over HTTP: tables of sections of rows, edited with UIKit's batch-update index semantics."},
        "servers":[{"url":"/"}],
        "paths":\(paths),
        "components":\(components)}
        """
}
