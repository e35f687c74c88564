import Foundation
import MicroHTTPTesting
import TableServer
import Testing

/// The `webtableview` executable as an operator runs it: its first line, the
/// `check` command's exit codes, `serve`'s options and their defaults, and a
/// clean exit 0 on SIGTERM and SIGINT.
@Suite struct ProcessTests {
    /// The executable `swift build --build-tests` put beside this test bundle.
    static let executable: URL = {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("webtableview")
    }()

    func launch(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// Runs a command that ends by itself: its exit status and its standard
    /// output and error together, white space collapsed (help text wraps).
    func run(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let words = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        return (process.terminationStatus, words.joined(separator: " "))
    }

    /// Reads the first line the server prints and answers its port.
    func port(from output: Pipe) throws -> Int {
        var line = [UInt8]()
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasPrefix("listening on http://127.0.0.1:"))
        return try #require(Int(text.split(separator: ":").last ?? ""))
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func stopsCleanlyOnASignal(_ signal: Int32) throws {
        let root = packageRoot.path
        let (process, output) = try launch([
            "serve", "--port", "0", "--public", root + "/Public", "--templates", root + "/Templates",
        ])
        let port = try port(from: output)
        let client = TestClient(port: port)
        #expect(try client.request(.GET, "/healthz").status == 200)
        #expect(try client.request(.GET, "/tables/countries").status == 200)
        let stream = try client.connect()
        try stream.send("GET /api/tables/countries/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try stream.readHead().status == 200)

        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        stream.close()
    }

    @Test func checkExitsZeroOneOrTwo() throws {
        let root = packageRoot.path
        let valid = try launch(["check", root + "/examples/countries.json", root + "/examples/us-cities.json"])
        valid.0.waitUntilExit()
        #expect(valid.0.terminationStatus == 0)

        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-check-\(getpid()).json")
        try Data(#"{"id": "x", "sections": [{"rows": [{"accessory": "arrow"}]}], "colour": 1}"#.utf8).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        let invalid = try launch(["check", bad.path])
        let text = String(decoding: invalid.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        invalid.0.waitUntilExit()
        #expect(invalid.0.terminationStatus == 1)
        #expect(text.contains("\(bad.path): $.sections[0].rows[0].accessory: unknown value \"arrow\""))
        #expect(text.contains("\(bad.path): $: unknown field \"colour\""))

        let usage = try launch(["check"])
        usage.0.waitUntilExit()
        #expect(usage.0.terminationStatus == 2)
    }

    @Test func serveShowsTheDefaultsOfServerOptions() throws {
        let help = try run(["serve", "--help"])
        #expect(help.status == 0)
        let defaults = ServerOptions()
        #expect(help.text.contains("(default: \(defaults.connectionLimit))"))
        #expect(help.text.contains("(default: \(defaults.answerCacheBytes))"))
        #expect(help.text.contains("--fsync <fsync>"))
        #expect(help.text.contains("(values: always, interval, never; default: always)"))
        #expect(help.text.contains("(values: trace, debug, info, notice, warning, error, critical; default: info)"))
    }

    @Test(arguments: [["--fsync", "sometimes"], ["--log-level", "loud"], ["--fsync", "ALWAYS"]])
    func serveRefusesAValueOutsideItsList(_ option: [String]) throws {
        let refused = try run(["serve", "--port", "0"] + option)
        #expect(refused.status == 2)
        #expect(refused.text.contains("The value '\(option[1])' is invalid for '\(option[0])"))
        #expect(!refused.text.contains("listening on"))
    }

    @Test func serveTakesEachListedValue() throws {
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-fsync-\(getpid())")
        defer { try? FileManager.default.removeItem(at: journal) }
        let root = packageRoot.path
        let (process, output) = try launch([
            "serve", "--port", "0", "--public", root + "/Public", "--templates", root + "/Templates",
            "--journal", journal.path, "--fsync", "interval", "--log-level", "critical",
        ])
        let port = try port(from: output)
        #expect(try TestClient(port: port).request(.GET, "/healthz").status == 200)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// The heap `/metrics` reports, in bytes.
    func heapInUse(_ client: TestClient) throws -> Int {
        let metrics = try client.request(.GET, "/metrics").text
        let line = try #require(metrics.split(separator: "\n").first { $0.hasPrefix("process_heap_in_use_bytes ") })
        return try #require(Int(line.split(separator: " ")[1]))
    }

    /// The audit's ten cycles of inserting and deleting 100 rows (12 MB
    /// batches) left the heap 347 MiB larger, each change kept with its JSON
    /// and rendered event. Here with 4 MB batches (a debug build renders
    /// slowly), each change still larger than the default `--history-bytes`.
    @Test func tenLargeInsertDeleteCyclesLeaveTheHeapWhereItWas() throws {
        let root = packageRoot.path
        let (process, output) = try launch([
            "serve", "--port", "0", "--public", root + "/Public", "--templates", root + "/Templates",
        ])
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        let client = TestClient(port: try port(from: output))
        let text = String(repeating: "t", count: 20_000)
        let rows = (0..<100).map { #"{"at": [0, \#($0)], "row": {"text": "\#(text)", "detail": "\#(text)"}}"# }
        let insert = Array(#"{"insertRows": [\#(rows.joined(separator: ","))]}"#.utf8)
        let delete = Array(#"{"deleteRows": [\#((0..<100).map { "[0, \($0)]" }.joined(separator: ","))]}"#.utf8)
        #expect(try client.request(.POST, "/api/tables", headers: jsonHeaders, body: body(#"{"id": "big", "sections": [{"rows": []}]}"#)).status == 201)
        let before = try heapInUse(client)
        for _ in 0..<10 {
            #expect(try client.request(.POST, "/api/tables/big/batch", headers: jsonHeaders, body: insert).status == 200)
            #expect(try client.request(.POST, "/api/tables/big/batch", headers: jsonHeaders, body: delete).status == 200)
        }
        let after = try heapInUse(client)
        #expect(after - before < 8 << 20, "heap grew from \(before) to \(after) bytes")
    }
}
