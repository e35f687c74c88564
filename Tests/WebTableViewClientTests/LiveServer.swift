import Foundation
import Logging
import TableJournal
import TableModel
import TableServer
import WebTableViewClient

/// The package's top folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Section `a` `a0…a6`, section `b` `b0 b1`, and section `c` with a switch and a button.
func fixtureTable(id: String = "t") -> Table {
    Table(
        id: id, title: "Fixture",
        sections: [
            Section(id: "a", header: "A", rows: (0..<7).map { Row(id: "a\($0)", text: "A\($0)") }),
            Section(id: "b", header: "B", rows: (0..<2).map { Row(id: "b\($0)", text: "B\($0)") }),
            Section(
                id: "c", header: "C",
                rows: [
                    Row(id: "wifi", text: "Wi-Fi", accessoryView: .switch(isOn: false, isEnabled: true)),
                    Row(id: "update", text: "Update", accessoryView: .button(title: "Update Now")),
                ]),
        ])
}

/// A server on 127.0.0.1, stopped by `shutdown()`: on a free port, or on `port`
/// to come back where its clients look for it.
func startServer(
    port: Int = 0, tables: [Table] = [fixtureTable()], configure: (inout ServerOptions) -> Void = { _ in }
) throws -> (server: WebTableViewServer, baseURL: URL) {
    var options = ServerOptions()
    options.port = port
    options.templatesDirectory = packageRoot.appendingPathComponent("Templates").path
    options.publicDirectory = packageRoot.appendingPathComponent("Public").path
    // Versions named bare, as with a journal; a test of a restart's new life says so.
    options.newLifeAtEachStart = false
    configure(&options)
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    let server = try WebTableViewServer(options: options, tables: tables, logger: logger)
    let bound = try server.start()
    return (server, URL(string: "http://127.0.0.1:\(bound)")!)
}

/// A test's own folder under the temporary directory.
func temporaryDirectory(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
}
