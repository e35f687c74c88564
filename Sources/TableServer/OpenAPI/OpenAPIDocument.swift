/// The OpenAPI 3.1 description of the HTTP interface, served at `/api/openapi.json`.
///
/// Written by hand in `openapi.json` beside this file, built into the binary by
/// the EmbedFiles plugin (docs/ARCHITECTURE.md). A test checks that every route
/// the server registers is described there and every path there is served, and
/// `make test-openapi` validates it with openapi-spec-validator.
enum OpenAPIDocument {
    /// Where the document is in the package.
    static let path = "Sources/TableServer/OpenAPI/openapi.json"

    /// The document as served, ending with a line feed like every JSON answer.
    static let bytes: [UInt8] = {
        guard let document = EmbeddedFiles.texts.first(where: { $0.path == path }) else {
            preconditionFailure("\(path) is not built in")
        }
        return Array(document.text.utf8)
    }()
}
