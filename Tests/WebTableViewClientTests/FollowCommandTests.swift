import Foundation
import TableModel
import ChildProcess
import Testing
import WebTableViewClient

/// `webtableview follow URL`, as a person runs it in a terminal.
@Suite struct FollowCommandTests {
    /// The executables `swift build --build-tests` put beside this test bundle.
    static let products: URL = {
        let bundle =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent()
    }()

    /// The next line the child prints, without its line feed; nil at the end of its output.
    private func line(of child: Child) throws -> String? {
        var line = [UInt8]()
        while let byte = try child.output.fileHandleForReading.read(upToCount: 1)?.first {
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    /// Lines until one equal to `last` (included).
    private func lines(of child: Child, through last: String) throws -> [String] {
        var lines: [String] = []
        while let line = try line(of: child) {
            lines.append(line)
            if line == last { break }
        }
        return lines
    }

    @Test func printsTheTableThenEachChangeAndStopsOnSIGINT() async throws {
        var (server, url) = try startServer()
        let port = url.port ?? 0
        let client = TableClient(baseURL: url)
        let child = try Child(
            Self.products.appendingPathComponent("webtableview"), ["follow", "\(url)/api/tables/t"], mergingErrors: true
        )
        #expect(
            try lines(of: child, through: "  [2, 1] update \"Update\"") == UpdateTranscript.lines(for: fixtureTable()))

        _ = try await client.performBatchUpdates(
            Batch(
                deleteRows: [TableIndexPath(0, 0)],
                insertRows: [Batch.RowItem(at: TableIndexPath(1, 0), row: Row(id: "n", text: "N"))],
                reloadRows: [Batch.RowItem(at: TableIndexPath(0, 2), row: Row(id: "a2", text: "A2!"))],
                moveRows: [Batch.RowMove(from: TableIndexPath(0, 1), to: TableIndexPath(0, 0))], animation: .fade),
            in: "t")
        #expect(
            try lines(of: child, through: "  insert row [1, 0] n \"N\"") == [
                "version 1 (fade)", "  delete row [0, 0]", "  reload row [0, 2] a2 \"A2!\"",
                "  move row [0, 1] → [0, 0]",
                "  insert row [1, 0] n \"N\"",
            ])

        server.shutdown()
        #expect(try line(of: child)?.hasPrefix("-- the server is gone (") == true)
        (server, _) = try startServer(port: port)
        defer { server.shutdown() }
        #expect(try line(of: child) == "-- the server is back")

        kill(child.process.processIdentifier, SIGINT)
        #expect(try lines(of: child, through: "-- stopped").last == "-- stopped")
        #expect(child.exitStatus() == 0)
    }

    @Test func watchRedrawsTheWholeTableInPlace() async throws {
        let (server, url) = try startServer()
        defer { server.shutdown() }
        let child = try Child(
            Self.products.appendingPathComponent("webtableview-follow"), ["--watch", "\(url)/api/tables/t"],
            mergingErrors: true)
        let table = UpdateTranscript.lines(for: fixtureTable())
        #expect(
            try lines(of: child, through: table.last ?? "") == ["\u{1B}[H\u{1B}[2Jversion 0: the whole table"] + table)
        _ = try await TableClient(baseURL: url).deleteItem("a0", in: "t", animation: .left)
        var after = fixtureTable()
        _ = try after.apply(Batch(deleteRows: [TableIndexPath(0, 0)]))
        let redrawn = UpdateTranscript.lines(for: after)
        #expect(try lines(of: child, through: redrawn.last ?? "") == ["\u{1B}[H\u{1B}[2Jversion 1 (left)"] + redrawn)
        kill(child.process.processIdentifier, SIGINT)
        #expect(child.exitStatus() == 0)
    }

    @Test func aURLThatNamesNoTableIsABadUsage() throws {
        let child = try Child(
            Self.products.appendingPathComponent("webtableview-follow"), ["http://127.0.0.1:1/nothing"],
            mergingErrors: true)
        let text = String(decoding: child.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(child.exitStatus() == 64)
        #expect(text.contains("names no table"))
    }
}
