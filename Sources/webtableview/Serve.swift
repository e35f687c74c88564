import ArgumentParser
import CAllocator
import Foundation
import Logging
import Synchronization
import TableDatabase
import TableJournal
import TableModel
import TableServer

/// `webtableview serve`: holds tables in memory and serves them until SIGINT or SIGTERM.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve tables over HTTP (the default command).",
        discussion: """
            FILE… and --data name the tables to serve: JSON files (one Table document or an array of \
            them) or CSV files (read as `webtableview import` reads them, with its options below, \
            by default every column kept, the delimiter found, see docs/FORMAT.md, "From a CSV \
            file"); which it is is told by the content. Without them the server starts with the three demo tables \
            (countries, settings, us-cities).
            The CSV options (--id, --text, --section, --sort, …) are import's, and apply to every \
            CSV file named, wherever they stand on the line: `serve a.csv b.csv --id iata` reads \
            the ids of both from their iata column. JSON files take none. --table-id names one \
            table, so it goes with one file only; import each of several files to give each \
            options of its own.
            It prints the URL it listens on as its first line, and stops cleanly on SIGINT or SIGTERM.

            Without --journal, tables live in memory only and a restart starts over. \
            With --journal DIR, every change is written to DIR before it is answered, and the \
            tables are rebuilt from DIR at start-up with their versions continuing; --data and \
            the demo tables then only seed a journal that has never held anything.

            With --database URL (or WEBTABLEVIEW_DATABASE_URL), the server is one replica of \
            several that share their tables through PostgreSQL: every edit is committed there \
            before it is answered, and every replica follows the others' changes. The first \
            replica on an empty database seeds it from --data or the demo tables.
            """
    )

    // Every default below is read from `ServerOptions` or `JournalOptions`, where it
    // is decided once; an option added here takes its default the same way.
    private static let defaults = ServerOptions()
    private static let journalDefaults = JournalOptions(directory: "")
    private static let databaseDefaults = DatabaseOptions(url: "")

    @Option(help: "Address to bind. Keep 127.0.0.1 unless edits are protected with a token.")
    var host = Self.defaults.host

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = Self.defaults.port

    @Argument(help: ArgumentHelp("Files of tables to serve: CSV, or JSON Table documents.", valueName: "file"))
    var files: [String] = []

    @Option(
        name: .customLong("data"),
        help: "A file of tables to serve, like FILE: CSV with a header row, or JSON (repeatable).")
    var dataFiles: [String] = []

    @OptionGroup(title: "How each CSV file makes a table (as import takes them)")
    var columns: CSVColumnOptions

    @Option(help: "Worker threads answering requests.")
    var threads = Self.defaults.threads

    @Option(
        name: .customLong("heavy-threads"),
        help: "Threads running heavy requests (imports, snapshot PUTs, large bodies, views of large tables).")
    var heavyThreads = Self.defaults.heavyThreads

    @Option(
        name: .customLong("heavy-queue"),
        help: "Heavy requests that may wait for a heavy thread; more are refused 503 heavy-work-busy.")
    var heavyQueue = Self.defaults.heavyQueue

    @Option(name: .customLong("public"), help: "Folder of static files served under /public.")
    var publicDirectory = Self.defaults.publicDirectory

    @Option(name: .customLong("templates"), help: "Folder of Mustache templates, read at start-up.")
    var templatesDirectory = Self.defaults.templatesDirectory

    @Option(help: "Changes kept per table for /changes and event-stream replay.")
    var history = Self.defaults.history

    @Option(
        name: .customLong("history-bytes"),
        help: ArgumentHelp("Bytes those changes may take per table; older ones go first.", valueName: "bytes"))
    var historyBytes = Self.defaults.historyBytes

    @Option(name: .customLong("max-tables"), help: "Most tables the server holds; creating more is refused.")
    var maxTables = Self.defaults.maxTables

    @Option(name: .customLong("max-body"), help: "Largest request body, in bytes.")
    var maxBody = Self.defaults.maxBodySize

    @Option(name: .customLong("max-field-bytes"), help: "Largest text of one field, in bytes.")
    var maxFieldBytes = Self.defaults.limits.maxFieldBytes

    @Option(
        name: .customLong("token-file"),
        help: "File holding the bearer token edits must carry (or set WEBTABLEVIEW_TOKEN).")
    var tokenFile: String?

    @OptionGroup(title: "Access per table")
    var access: AccessOptions

    @Option(name: .customLong("connection-timeout"), help: "Seconds an idle connection is kept open.")
    var connectionTimeout = Self.defaults.connectionTimeout

    @Option(name: .customLong("connection-limit"), help: "Most connections open at once, event streams included.")
    var connectionLimit = Self.defaults.connectionLimit

    @Option(
        name: .customLong("answer-cache"),
        help: ArgumentHelp(
            "Bytes of JSON read answers kept ready to send again while their table is unchanged (0: none).",
            valueName: "bytes"))
    var answerCache = Self.defaults.answerCacheBytes

    @Option(
        help: ArgumentHelp(
            "Folder of the journal that makes changes durable (created when missing).",
            discussion:
                "Every change is appended there before it is answered; at start-up the tables are rebuilt from it.",
            valueName: "dir"))
    var journal: String?

    @Option(
        help: ArgumentHelp(
            "PostgreSQL database the replicas share (a libpq URL or conninfo; or set WEBTABLEVIEW_DATABASE_URL).",
            discussion: "Every edit is committed there before it is answered; excludes --journal.",
            valueName: "url"))
    var database: String?

    @Option(
        name: .customLong("database-connections"),
        help: "Connections to the database for edits (the follower has one more).")
    var databaseConnections = Self.databaseDefaults.connections

    @Option(
        help:
            "When journal writes reach the disk: always (before each answer), interval (every second), never (left to the OS)."
    )
    var fsync = Self.journalDefaults.fsync

    @Option(
        name: .customLong("snapshot-every"),
        help: ArgumentHelp(
            "Journal records (or, with --database, changes of one table) between background snapshots, which trim the log.",
            valueName: "records"))
    var snapshotEvery = Self.journalDefaults.snapshotEveryRecords

    @Option(
        name: .customLong("snapshot-bytes"),
        help: ArgumentHelp("Journal bytes between background snapshots.", valueName: "bytes"))
    var snapshotBytes = Self.journalDefaults.snapshotEveryBytes

    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "A host name the Host header may name besides localhost, 127.0.0.1 and [::1] (repeatable).",
            discussion:
                "Bound to a loopback address, requests naming another host get 421: a page whose name rebinds to 127.0.0.1 cannot reach the server.",
            valueName: "name"))
    var allowedHosts: [String] = []

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "An origin (scheme://host[:port]) whose pages may call the API and edit (repeatable; none by default).",
            valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(name: .customLong("log-level"), help: "Least severe message written to standard error.")
    var logLevel = Logger.Level.info

    @Option(
        help: ArgumentHelp(
            "An optimisation to switch off, for benchmarks (repeatable).",
            discussion: "make bench's ablation step measures what each buys (docs/PERFORMANCE.md).",
            valueName: "name"))
    var ablate: [Ablation] = []

    func validate() throws {
        try columns.validate(fileCount: files.count + dataFiles.count)
        guard (0...65535).contains(port) else { throw ArgumentParser.ValidationError("--port must be 0…65535") }
        guard (1...256).contains(threads) else { throw ArgumentParser.ValidationError("--threads must be 1…256") }
        guard (1...64).contains(heavyThreads) else {
            throw ArgumentParser.ValidationError("--heavy-threads must be 1…64")
        }
        guard (0...10_000).contains(heavyQueue) else {
            throw ArgumentParser.ValidationError("--heavy-queue must be 0…10000")
        }
        guard history >= 1 else { throw ArgumentParser.ValidationError("--history must be at least 1") }
        guard historyBytes >= 1 else { throw ArgumentParser.ValidationError("--history-bytes must be at least 1") }
        guard maxTables >= 1 else { throw ArgumentParser.ValidationError("--max-tables must be at least 1") }
        guard connectionLimit >= 1 else {
            throw ArgumentParser.ValidationError("--connection-limit must be at least 1")
        }
        guard maxBody >= 1024 else { throw ArgumentParser.ValidationError("--max-body must be at least 1024") }
        guard answerCache >= 0 else { throw ArgumentParser.ValidationError("--answer-cache must be 0 or more") }
        guard snapshotEvery >= 1, snapshotBytes >= 1 else {
            throw ArgumentParser.ValidationError("--snapshot-every and --snapshot-bytes must be at least 1")
        }
        for origin in corsOrigins where !ServerOptions.isOrigin(origin) {
            throw ArgumentParser.ValidationError(
                "--cors-origin must be scheme://host[:port], without a path (got \(origin))")
        }
        for name in allowedHosts where !ServerOptions.isHostName(name) {
            throw ArgumentParser.ValidationError(
                "--allowed-host must be a host name, optionally with :port (got \(name))")
        }
        guard journal?.isEmpty != true else { throw ArgumentParser.ValidationError("--journal needs a folder") }
        guard database?.isEmpty != true else { throw ArgumentParser.ValidationError("--database needs a URL") }
        guard database == nil || journal == nil else {
            throw ArgumentParser.ValidationError(
                "--journal and --database exclude each other: the database is the durable log")
        }
        guard (1...256).contains(databaseConnections) else {
            throw ArgumentParser.ValidationError("--database-connections must be 1…256")
        }
    }

    func run() throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "webtableview")

        var limits = ModelLimits()
        limits.maxFieldBytes = maxFieldBytes
        let tables = try loadTables(limits: limits)

        var options = Self.defaults
        options.host = host
        options.port = port
        options.threads = threads
        options.heavyThreads = heavyThreads
        options.heavyQueue = heavyQueue
        options.publicDirectory = Self.locate(publicDirectory)
        options.templatesDirectory = Self.locate(templatesDirectory)
        options.history = history
        options.historyBytes = historyBytes
        options.maxTables = maxTables
        options.maxBodySize = maxBody
        options.limits = limits
        options.connectionTimeout = connectionTimeout
        options.connectionLimit = connectionLimit
        options.answerCacheBytes = answerCache
        options.token = try readToken()
        (options.accessPolicy, options.tokenVerifier, options.shareLinks) = try access.load()
        options.allowedHosts = allowedHosts
        options.corsOrigins = corsOrigins
        options.ablations = Set(ablate)
        if let journal {
            var journalOptions = JournalOptions(directory: journal)
            journalOptions.fsync = fsync
            journalOptions.snapshotEveryRecords = snapshotEvery
            journalOptions.snapshotEveryBytes = snapshotBytes
            options.journal = journalOptions
        }
        if let url = databaseURL {
            guard journal == nil else {
                FileHandle.standardError.write(
                    Data("webtableview: WEBTABLEVIEW_DATABASE_URL and --journal exclude each other\n".utf8))
                throw ExitCode(1)
            }
            var databaseOptions = DatabaseOptions(url: url)
            databaseOptions.connections = databaseConnections
            databaseOptions.snapshotEvery = snapshotEvery
            options.database = databaseOptions
        }

        SignalWaiter.blockTerminationSignals()
        // A write past a file-size limit (RLIMIT_FSIZE) then fails with EFBIG,
        // answered 503 like a full disk, instead of killing the process.
        signal(SIGXFSZ, SIG_IGN)
        let server: WebTableViewServer
        do {
            server = try Self.start(options: options, tables: tables, logger: logger)
        } catch let error as WebTableViewServer.StartError {
            FileHandle.standardError.write(Data("webtableview: \(error)\n".utf8))
            if case .databaseRejected = error { throw ExitCode(2) }
            throw ExitCode(1)
        } catch {
            FileHandle.standardError.write(Data("webtableview: \(error)\n".utf8))
            throw ExitCode(1)
        }
        Self.releaseFreeHeap()
        if let warning = options.exposureWarning {
            FileHandle.standardError.write(Data("webtableview: \(warning)\n".utf8))
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        // Written straight to the file descriptor: a pipe must see this line at once.
        FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(server.port)\n".utf8))
        if let refusal = server.eventBatchingRefusal {
            logger.info("\(refusal): events go out one send() per subscriber")
        }
        let signal = SignalWaiter.wait()
        logger.info("stopping", metadata: ["signal": "\(signal)"])
        let stopping = Self.bound(stopping: logger)
        server.shutdown()
        stopping.stopped.store(true, ordering: .sequentiallyConsistent)
    }

    /// How long stopping may take before the process exits anyway: under the
    /// 10 s a container runtime waits before SIGKILL (docs/CONTAINER.md).
    static let stopDeadline = 8

    /// Ends the process with status 1 if stopping outlasts ``stopDeadline``
    /// seconds (a request's work that will not finish), or at once on a second
    /// SIGINT or SIGTERM. A journal stopped so is replayed as after a crash.
    /// Answers the flag the caller sets once the server has stopped: from then
    /// on the process ends as it will (its exit may take a while, as a leak
    /// check's at exit does) and is never cut short.
    private static func bound(stopping logger: Logger) -> Stopping {
        let stopping = Stopping()
        let thread = Thread {
            let signal = SignalWaiter.wait(upTo: stopDeadline * 1_000)
            guard !stopping.stopped.load(ordering: .sequentiallyConsistent) else { return }
            if let signal {
                logger.warning("stopping: a second signal, exiting now", metadata: ["signal": "\(signal)"])
            } else {
                logger.warning("stopping took longer than \(stopDeadline) s: exiting with work unfinished")
            }
            _exit(1)
        }
        thread.name = "webtableview.stop"
        thread.start()
        return stopping
    }

    /// Whether the server has stopped, set once by the thread that stopped it.
    private final class Stopping: Sendable {
        let stopped = Atomic(false)
    }

    /// Makes and starts the server on a thread of its own, while this one
    /// waits for SIGINT or SIGTERM: start-up may wait for PostgreSQL a long
    /// time, and a signal meanwhile ends the process at once (status 0).
    private static func start(options: ServerOptions, tables: [Table], logger: Logger) throws -> WebTableViewServer {
        let outcome = Mutex<Result<WebTableViewServer, any Error>?>(nil)
        let thread = Thread {
            let made = Result {
                let server = try WebTableViewServer(options: options, tables: tables, logger: logger)
                try server.start()
                return server
            }
            outcome.withLock { $0 = made }
        }
        thread.name = "webtableview.start"
        thread.start()
        while true {
            if let made = outcome.withLock({ $0 }) { return try made.get() }
            if let signal = SignalWaiter.wait(upTo: 50) {
                logger.info("stopping before start-up ended", metadata: ["signal": "\(signal)"])
                Foundation.exit(0)
            }
        }
    }

    /// Loading parsed every `--data` file into JSON values that are gone now: hands
    /// that memory back to the system rather than keeping it as free heap.
    private static func releaseFreeHeap() {
        _ = wtv_release_free_heap()
    }

    /// The tables of every FILE and `--data` file, or the demo tables when there is none.
    func loadTables(limits: ModelLimits) throws -> [Table] {
        guard !files.isEmpty || !dataFiles.isEmpty else { return DemoTables.all }
        var tables: [Table] = []
        var failed = false
        for file in files + dataFiles {
            let progress = LoadProgress(file: file)
            switch TableFile.load(file, limits: limits, csvOptions: columns.importOptions, progress: progress.read) {
            case .success(let loaded):
                progress.finished(loaded)
                tables += loaded
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

    /// `--database`, or else a non-empty `WEBTABLEVIEW_DATABASE_URL`.
    private var databaseURL: String? {
        if let database { return database }
        let variable = ProcessInfo.processInfo.environment["WEBTABLEVIEW_DATABASE_URL"]
        return variable?.isEmpty == false ? variable : nil
    }

    private func readToken() throws -> String? {
        if let tokenFile {
            func refuse(_ why: String) -> ExitCode {
                FileHandle.standardError.write(Data("webtableview: the token file \(tokenFile) \(why)\n".utf8))
                return ExitCode(1)
            }
            // Read through a file handle: FileManager.contents(atPath:) leaks its
            // 4 KiB buffer for an empty file (seen under AddressSanitizer).
            // readToEnd() is nil for an empty file.
            guard let handle = FileHandle(forReadingAtPath: tokenFile) else { throw refuse("cannot be read") }
            defer { try? handle.close() }
            let data: Data
            do { data = try handle.readToEnd() ?? Data() } catch { throw refuse("cannot be read") }
            guard let text = String(data: data, encoding: .utf8) else { throw refuse("is not UTF-8 text") }
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty else {
                throw refuse(data.isEmpty ? "is empty" : "holds only white space")
            }
            return token
        }
        if let token = ProcessInfo.processInfo.environment["WEBTABLEVIEW_TOKEN"], !token.isEmpty {
            return token
        }
        return nil
    }

    /// `path` as given when it exists; otherwise, for a relative default, the
    /// folder of that name near the binary, so that it runs from anywhere: at the
    /// top of the source tree it was built in (`.build/debug/webtableview` →
    /// `./`), or where `make install` put it (`PREFIX/bin/webtableview` →
    /// `PREFIX/share/webtableview/`).
    static func locate(_ path: String) -> String {
        let manager = FileManager.default
        if path.hasPrefix("/") || manager.fileExists(atPath: path) { return path }
        guard let executable = Bundle.main.executableURL else { return path }
        var folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            for candidate in [
                folder.appendingPathComponent(path), folder.appendingPathComponent("share/webtableview/" + path),
            ]
            where manager.fileExists(atPath: candidate.path) {
                return candidate.path
            }
            folder.deleteLastPathComponent()
        }
        return path
    }
}

/// `--fsync always|interval|never`, parsed by its raw values.
extension FsyncPolicy: ExpressibleByArgument {}

/// `--ablate row-plan|send-ring|notice-changes`, parsed by its raw values.
extension Ablation: ExpressibleByArgument {}

/// `--log-level trace|…|critical`, parsed by its raw values, as Hummingbird's
/// project template does.
extension Logger.Level: @retroactive ExpressibleByArgument {}
