import Foundation
import TableJournal
import TableModel
import TableServer
import TableServerTesting
import WebTableViewClient

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
    let server = try makeServer(tables: tables) { options in
        options.port = port
        configure(&options)
    }
    let bound = try server.start()
    return (server, URL(string: "http://127.0.0.1:\(bound)")!)
}

/// A test's own folder under the temporary directory.
func temporaryDirectory(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
}
