import ArgumentParser
import Foundation
import Logging
import MicroHTTP
import TableModel
import TableServer

/// `webtableview serve`: holds tables in memory and serves them until SIGINT or SIGTERM.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve tables over HTTP (the default command).",
        discussion: """
            Without --data the server starts with the demo tables (countries, US cities).
            It prints the URL it listens on as its first line, and stops cleanly on SIGINT or SIGTERM.
            """
    )

    @Option(help: "Address to bind. Keep 127.0.0.1 unless edits are protected with a token.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(name: .customLong("data"), help: "A JSON file of one Table document or an array of them (repeatable).")
    var dataFiles: [String] = []

    @Option(help: "Worker threads answering requests.")
    var threads = 2

    @Option(name: .customLong("public"), help: "Folder of static files served under /public.")
    var publicDirectory = "Public"

    @Option(name: .customLong("templates"), help: "Folder of Mustache templates, read at start-up.")
    var templatesDirectory = "Templates"

    @Option(help: "Changes kept per table for /changes and event-stream replay.")
    var history = 1000

    @Option(name: .customLong("max-body"), help: "Largest request body, in bytes.")
    var maxBody = 16 << 20

    @Option(name: .customLong("max-field-bytes"), help: "Largest text of one field, in bytes.")
    var maxFieldBytes = ModelLimits().maxFieldBytes

    @Option(name: .customLong("token-file"), help: "File holding the bearer token edits must carry (or set WEBTABLEVIEW_TOKEN).")
    var tokenFile: String?

    @Option(name: .customLong("connection-timeout"), help: "Seconds an idle connection is kept open.")
    var connectionTimeout = 30

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ArgumentParser.ValidationError("--port must be 0…65535") }
        guard (1...256).contains(threads) else { throw ArgumentParser.ValidationError("--threads must be 1…256") }
        guard history >= 1 else { throw ArgumentParser.ValidationError("--history must be at least 1") }
        guard maxBody >= 1024 else { throw ArgumentParser.ValidationError("--max-body must be at least 1024") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ArgumentParser.ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "webtableview")

        var limits = ModelLimits()
        limits.maxFieldBytes = maxFieldBytes
        let tables = try loadTables(limits: limits)

        var options = ServerOptions()
        options.host = host
        options.port = port
        options.threads = threads
        options.publicDirectory = Self.locate(publicDirectory)
        options.templatesDirectory = Self.locate(templatesDirectory)
        options.history = history
        options.maxBodySize = maxBody
        options.limits = limits
        options.connectionTimeout = connectionTimeout
        options.token = try readToken()

        SignalWaiter.blockTerminationSignals()
        let server: WebTableViewServer
        do {
            server = try WebTableViewServer(options: options, tables: tables, logger: logger)
            try server.start()
        } catch {
            FileHandle.standardError.write(Data("webtableview: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        // Written straight to the file descriptor: a pipe must see this line at once.
        FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(server.port)\n".utf8))
        let signal = SignalWaiter.wait()
        logger.info("stopping", metadata: ["signal": "\(signal)"])
        server.shutdown()
    }

    /// The tables of every `--data` file, or the demo tables when there is none.
    private func loadTables(limits: ModelLimits) throws -> [Table] {
        guard !dataFiles.isEmpty else { return DemoTables.all }
        var tables: [Table] = []
        var failed = false
        for file in dataFiles {
            switch TableFile.load(file, limits: limits) {
            case .success(let loaded): tables += loaded
            case .failure(let error):
                failed = true
                for message in error.messages {
                    FileHandle.standardError.write(Data("\(file): \(message)\n".utf8))
                }
            }
        }
        if failed { throw ExitCode(1) }
        return tables
    }

    private func readToken() throws -> String? {
        if let tokenFile {
            guard let data = FileManager.default.contents(atPath: tokenFile),
                  let text = String(data: data, encoding: .utf8),
                  !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            else {
                FileHandle.standardError.write(Data("webtableview: cannot read a token from \(tokenFile)\n".utf8))
                throw ExitCode(1)
            }
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let token = ProcessInfo.processInfo.environment["WEBTABLEVIEW_TOKEN"], !token.isEmpty {
            return token
        }
        return nil
    }

    /// `path` as given when it exists; otherwise, for a relative default, the
    /// folder of that name at the top of the source tree the binary was built in
    /// (`.build/debug/webtableview` → `./`), so the binary runs from anywhere.
    static func locate(_ path: String) -> String {
        let manager = FileManager.default
        if path.hasPrefix("/") || manager.fileExists(atPath: path) { return path }
        guard let executable = Bundle.main.executableURL else { return path }
        var folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(path).path
            if manager.fileExists(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        return path
    }
}
