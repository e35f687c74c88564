import ChildProcess
import Foundation
import MicroHTTPTesting
import TableServer
import TableServerTesting
import Testing

/// The `webtableview` executable as an operator runs it: its first line, the
/// `check` command's exit codes, `serve`'s options and their defaults, and a
/// clean exit 0 on SIGTERM and SIGINT.
@Suite(.timeLimit(.minutes(2))) struct ProcessTests {
    /// The executable `swift build --build-tests` put beside this test bundle.
    static let executable: URL = {
        let bundle =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("webtableview")
    }()

    /// Starts the executable; its standard error is dropped unless `mergingErrors`.
    func launch(_ arguments: [String], mergingErrors: Bool = false, limit: Duration = .seconds(60)) throws -> Child {
        try Child(Self.executable, arguments, mergingErrors: mergingErrors, limit: limit)
    }

    /// Runs a command that ends by itself: its exit status and its standard
    /// output and error together, white space collapsed (help text wraps).
    func run(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let child = try launch(arguments, mergingErrors: true)
        let data = child.output.fileHandleForReading.readDataToEndOfFile()
        let words = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        return (child.exitStatus(), words.joined(separator: " "))
    }

    /// Reads the first line the server prints and answers its port.
    func port(from child: Child) throws -> Int {
        var line = [UInt8]()
        while let byte = try child.output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasPrefix("listening on http://127.0.0.1:"))
        return try #require(Int(text.split(separator: ":").last ?? ""))
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func stopsCleanlyOnASignal(_ signal: Int32) throws {
        let root = packageRoot.path
        let server = try launch([
            "serve", "--port", "0", "--public", root + "/Public", "--templates", root + "/Templates",
        ])
        let port = try port(from: server)
        let client = TestClient(port: port)
        #expect(try client.request(.GET, "/healthz").status == 200)
        #expect(try client.request(.GET, "/tables/countries").status == 200)
        let stream = try client.connect()
        try stream.send("GET /api/tables/countries/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try stream.readHead().status == 200)

        kill(server.process.processIdentifier, signal)
        #expect(server.exitStatus() == 0)
        #expect(server.process.terminationReason == .exit)
        stream.close()
    }

    @Test func checkExitsZeroOneOrTwo() throws {
        let root = packageRoot.path
        let valid = try launch([
            "check", root + "/examples/countries.json", root + "/examples/settings.json",
            root + "/examples/us-cities.json",
        ])
        #expect(valid.exitStatus() == 0)

        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-check-\(getpid()).json")
        try Data(
            #"""
            {"id": "x", "sections": [{"rows": [{"accessory": "arrow"}, {"accessoryView": {"type": "slider"}}]}], "colour": 1}
            """#.utf8
        ).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        let invalid = try launch(["check", bad.path])
        let text = String(decoding: invalid.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(invalid.exitStatus() == 1)
        #expect(text.contains("\(bad.path): $.sections[0].rows[0].accessory: unknown value \"arrow\""))
        #expect(text.contains("\(bad.path): $: unknown field \"colour\""))
        #expect(
            text.contains(
                #"$.sections[0].rows[1].accessoryView.type: unknown value "slider"; expected one of "switch", "badge", "activityIndicator", "button""#
            ))

        #expect(try launch(["check"]).exitStatus() == 2)

        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-check-\(getpid()).csv")
        try Data("text,id\nA,a\nB,a\n".utf8).write(to: csv)
        defer { try? FileManager.default.removeItem(at: csv) }
        let csvChecked = try run(["check", csv.path])
        #expect(csvChecked.status == 1)
        #expect(
            csvChecked.text == "\(csv.path): line 3: id \"a\" is already the id of line 2",
            "CSV is checked as serve reads it")
    }

    /// `import` writes the Table document of a CSV file, or names each problem
    /// with its line; `serve --data` takes the CSV file through the same code.
    @Test func importAndServeACSVFile() throws {
        let directory = FileManager.default.temporaryDirectory
        let good = directory.appendingPathComponent("wtv-cities-\(getpid()).csv")
        let bad = directory.appendingPathComponent("wtv-bad-\(getpid()).csv")
        try Data("name,state,id\nBuffalo,NY,buf\n\"Los Angeles, CA\",CA,la\n".utf8).write(to: good)
        try Data("name,id\nA,a\nB\n\"C\n".utf8).write(to: bad)
        defer {
            try? FileManager.default.removeItem(at: good)
            try? FileManager.default.removeItem(at: bad)
        }
        let imported = try launch(["import", good.path, "--table-id", "cities", "--section", "state"])
        let json = imported.output.fileHandleForReading.readDataToEndOfFile()
        #expect(imported.exitStatus() == 0)
        let table = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        #expect(table?["id"] as? String == "cities")
        #expect((table?["sections"] as? [[String: Any]])?.compactMap { $0["header"] as? String } == ["NY", "CA"])

        let refused = try run(["import", bad.path])
        #expect(refused.status == 1)
        #expect(
            refused.text
                == "\(bad.path): line 3: 1 field, but the header has 2 \(bad.path): line 4: a quoted field opens here and is never closed",
            "every problem, each with its line")

        let server = try launch(["serve", "--port", "0", "--data", good.path])
        let client = TestClient(port: try port(from: server))
        let rows = try client.request(.GET, "/api/tables/wtv-cities-\(getpid())/sections/0/rows")
        #expect(rows.status == 200)
        #expect(rows.text.contains("\"id\":\"la\""))
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.exitStatus() == 0)
    }

    /// `serve FILE…` takes CSV and JSON files as arguments, told apart by their
    /// content; `import -` reads standard input; `serve --help` says so.
    @Test func serveTakesFilesAndImportReadsStandardInput() throws {
        let directory = FileManager.default.temporaryDirectory
        let csv = directory.appendingPathComponent("wtv-airports-\(getpid()).txt")
        let json = directory.appendingPathComponent("wtv-one-\(getpid()).data")
        try Data("name;iata;elevation\nHeathrow;LHR;83\nSchiphol;AMS;-11\n".utf8).write(to: csv)
        try Data(#"{"id":"one","sections":[{"rows":[{"text":"1"}]}]}"#.utf8).write(to: json)
        defer {
            try? FileManager.default.removeItem(at: csv)
            try? FileManager.default.removeItem(at: json)
        }
        let server = try launch(["serve", "--port", "0", csv.path, json.path])
        let client = TestClient(port: try port(from: server))
        let airports = try client.request(.GET, "/api/tables/wtv-airports-\(getpid())?format=csv")
        #expect(
            airports.text == "name,iata,elevation\r\nHeathrow,LHR,83\r\nSchiphol,AMS,-11\r\n",
            "the file's own columns, in the export's dialect")
        #expect(try client.request(.GET, "/api/tables/one").status == 200)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.exitStatus() == 0)

        let piped = try Child(
            Self.executable, ["import", "-", "--table-id", "p", "--sort", "-n"], mergingErrors: false,
            input: Data("text,n\na,1\nb,2\n".utf8))
        let document = String(decoding: piped.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(piped.exitStatus() == 0)
        #expect(
            document
                == #"{"id":"p","source":{"format":"csv","columns":["text","n"],"text":"text","detail":null,"id":null,"section":null,"fields":{"n":"n"},"sort":"n","sortDescending":true,"sortSections":false,"indexTitles":false},"sections":[{"rows":[{"text":"b","fields":{"n":2}},{"text":"a","fields":{"n":1}}]}]}"#
                + "\n")

        let help = try run(["serve", "--help"])
        #expect(help.text.contains("(countries, settings, us-cities)"))
        #expect(help.text.contains("CSV with a header row"))
    }

    /// Loading a large file says so before and after, on standard error.
    @Test func loadingALargeFileSaysHowItGoes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-large-\(getpid()).csv")
        try Data(("text,n\n" + (0..<60_000).map { "row number \($0),\($0)\n" }.joined()).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try launch(["serve", "--port", "0", file.path], mergingErrors: true)
        var lines: [String] = []
        var line = [UInt8]()
        while lines.last?.hasPrefix("listening on") != true,
            let byte = try server.output.fileHandleForReading.read(upToCount: 1)?.first
        {
            if byte == UInt8(ascii: "\n") {
                lines.append(String(decoding: line, as: UTF8.self))
                line = []
            } else {
                line.append(byte)
            }
        }
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first?.hasPrefix("\(file.path): loading 1.") == true && lines.first?.hasSuffix(" MB…") == true)
        #expect(lines.dropFirst().first?.hasPrefix("\(file.path): 60000 rows in 1 table, ") == true)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.exitStatus() == 0)
    }

    /// `serve` and `import` of a file they cannot read say why and exit 1;
    /// `serve` takes import's column options for every CSV file.
    @Test func aFileNotReadIsNamedForWhyAndServeTakesColumnOptions() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-missing-\(getpid()).csv").path
        for command in [["serve", "--port", "0", missing], ["import", missing]] {
            let refused = try run(command)
            #expect(refused.status == 1, "\(command)")
            #expect(refused.text == "\(missing): not found: no such file", "\(command)")
        }

        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-codes-\(getpid()).csv")
        try Data("name,iata\nOslo,OSL\nMadrid,MAD\n".utf8).write(to: csv)
        defer { try? FileManager.default.removeItem(at: csv) }
        let server = try launch(["serve", "--port", "0", csv.path, "--id", "iata", "--table-id", "codes"])
        let client = TestClient(port: try port(from: server))
        let item = try client.request(.GET, "/api/tables/codes/items/MAD")
        #expect(item.status == 200)
        #expect(item.text.contains(#""text":"Madrid""#))
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.exitStatus() == 0)
    }

    /// A token file that is empty, blank or missing stops the server with the reason.
    @Test func aTokenFileThatHoldsNoTokenIsNamedForWhatItIs() throws {
        let directory = FileManager.default.temporaryDirectory
        let empty = directory.appendingPathComponent("wtv-token-empty-\(getpid())")
        let blank = directory.appendingPathComponent("wtv-token-blank-\(getpid())")
        try Data().write(to: empty)
        try Data(" \n".utf8).write(to: blank)
        defer {
            try? FileManager.default.removeItem(at: empty)
            try? FileManager.default.removeItem(at: blank)
        }
        for (file, reason) in [
            (empty.path, "is empty"), (blank.path, "holds only white space"),
            (empty.path + "-missing", "cannot be read"),
        ] {
            let refused = try run(["serve", "--port", "0", "--token-file", file])
            #expect(refused.status == 1)
            #expect(refused.text == "webtableview: the token file \(file) \(reason)", "\(file)")
        }
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
        let server = try launch([
            "serve", "--port", "0", "--public", root + "/Public", "--templates", root + "/Templates",
            "--journal", journal.path, "--fsync", "interval", "--log-level", "critical",
        ])
        let port = try port(from: server)
        #expect(try TestClient(port: port).request(.GET, "/healthz").status == 200)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.exitStatus() == 0)
    }
}

extension ProcessTests {
    @Test func aChildThatNeverExitsIsKilledByItsWatchdog() throws {
        let server = try Child(Self.executable, ["serve", "--port", "0"], mergingErrors: false, limit: .zero)
        #expect(server.exitStatus() == SIGKILL)
        #expect(server.process.terminationReason == .uncaughtSignal)
    }

    /// The heap `/metrics` reports, in bytes.
    func heapInUse(_ client: TestClient) throws -> Int {
        try #require(try metric(client, "process_heap_in_use_bytes"))
    }

    /// The audit's ten cycles of inserting and deleting 100 rows (12 MB
    /// batches) left the heap 347 MiB larger, each change kept with its JSON
    /// and rendered event. Here with 4 MB batches (a debug build renders
    /// slowly), each change still larger than the default `--history-bytes`.
    @Test func tenLargeInsertDeleteCyclesLeaveTheHeapWhereItWas() throws {
        let root = packageRoot.path
        // A 4 MB batch takes the sanitizers' build seconds, tens of seconds on a
        // loaded machine: the server lived past its watchdog's minute there
        // and was killed before its answers. It has ten minutes here, and
        // keeps an idle connection as long.
        let server = try launch(
            [
                "serve", "--port", "0", "--public", root + "/Public", "--templates", root + "/Templates",
                "--connection-timeout", "600",
            ], limit: .seconds(600))
        let client = TestClient(port: try port(from: server))
        let text = String(repeating: "t", count: 20_000)
        let rows = (0..<100).map { #"{"at": [0, \#($0)], "row": {"text": "\#(text)", "detail": "\#(text)"}}"# }
        let insert = Array(#"{"insertRows": [\#(rows.joined(separator: ","))]}"#.utf8)
        let delete = Array(#"{"deleteRows": [\#((0..<100).map { "[0, \($0)]" }.joined(separator: ","))]}"#.utf8)
        #expect(
            try client.request(
                .POST, "/api/tables", headers: jsonHeaders, body: body(#"{"id": "big", "sections": [{"rows": []}]}"#)
            ).status == 201)
        let before = try heapInUse(client)
        for _ in 0..<10 {
            #expect(
                try client.request(.POST, "/api/tables/big/batch", headers: jsonHeaders, body: insert).status == 200)
            #expect(
                try client.request(.POST, "/api/tables/big/batch", headers: jsonHeaders, body: delete).status == 200)
        }
        // A 4 MB batch is heavy work (docs/RELIABILITY.md, "Heavy work"): its
        // request and answer are let go of once its connection, resumed for
        // the answer, is done with them, moments after the client has it.
        var after = try heapInUse(client)
        _ = eventually {
            after = (try? heapInUse(client)) ?? after
            return after - before < 8 << 20
        }
        #expect(after - before < 8 << 20, "heap grew from \(before) to \(after) bytes")
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.exitStatus() == 0)
    }
}
