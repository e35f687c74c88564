import Foundation
import Synchronization
import Testing

/// A private PostgreSQL cluster for the tests: in a temporary folder, on a free
/// loopback port, run as the unprivileged `postgres` user when the tests run as
/// root (PostgreSQL refuses root). `make test` installs PostgreSQL first
/// (scripts/install-deps.sh replicas). A suite marked `.postgresCluster` runs
/// with one (`PostgresCluster.current`), stopped when the suite ends; each test
/// takes a fresh, empty database of it (`database()`).
///
/// Unchecked `Sendable`: `server` is used by `init` and `stop` only, which the
/// suite's trait calls one after the other; the rest is immutable or atomic.
final class PostgresCluster: @unchecked Sendable {
    /// The cluster of the suite running.
    @TaskLocal static var current: PostgresCluster?

    let folder: String
    let port: Int
    /// The server, run in the foreground as our child (not through `pg_ctl`,
    /// whose server would outlive the command and keep Foundation from seeing
    /// the command end: it watches a socket every descendant inherits).
    private let server: Process
    private let databases = Atomic(0)

    /// The newest PostgreSQL's programs Debian installed.
    static let programs: String = {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let newest = versions.compactMap(Int.init).max() ?? 15
        return "/usr/lib/postgresql/\(newest)/bin"
    }()

    /// Whether PostgreSQL's programs are installed (`initdb` and `postgres` in ``programs``).
    static var isInstalled: Bool {
        ["initdb", "postgres", "pg_isready", "createdb"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: "\(programs)/\($0)")
        }
    }

    /// `make test` sets `WEBTABLEVIEW_REQUIRE_POSTGRES=1`: there the database
    /// suites must run, and fail when PostgreSQL is missing, never be skipped.
    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["WEBTABLEVIEW_REQUIRE_POSTGRES"] == "1"
    }

    /// Whether a suite marked `.postgresCluster` runs: PostgreSQL is here, or
    /// it is required (and the suite then fails at once, saying it is missing).
    static var isRunnable: Bool { isInstalled || isRequired }

    /// Why the database suites are skipped.
    static let skipReason: Comment = """
        PostgreSQL is not installed (no \(programs)/initdb): install it with \
        scripts/install-deps.sh replicas; make test does, and fails instead of skipping
        """

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        chmod(folder, 0o777)
        port = try Self.freePort()
        try Self.process("initdb", ["-D", "\(folder)/db", "-A", "trust", "-U", "postgres"]).finish()
        _ = FileManager.default.createFile(atPath: "\(folder)/pg.log", contents: nil)
        server = try Self.process(
            "postgres",
            [
                "-D", "\(folder)/db", "-p", "\(port)", "-k", folder, "-c", "listen_addresses=127.0.0.1",
                // fsync off: a test cluster need not survive a power cut.
                "-c", "fsync=off", "-c", "full_page_writes=off",
            ],
            log: "\(folder)/pg.log")
        do {
            try waitUntilReady()
        } catch {
            stop()
            throw error
        }
    }

    /// A new, empty database; answers its URL.
    func database() throws -> String {
        let name = "wtv\(databases.add(1, ordering: .relaxed).newValue)"
        try Self.process("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", name]).finish()
        return "postgresql://postgres@127.0.0.1:\(port)/\(name)"
    }

    /// Ends the server at once (PostgreSQL's immediate shutdown) and removes its folder.
    func stop() {
        if server.isRunning { kill(server.processIdentifier, SIGQUIT) }
        server.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func waitUntilReady() throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let probe = try Self.process("pg_isready", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-q"])
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return }
            guard server.isRunning, ContinuousClock.now < deadline else {
                let log = (try? String(contentsOfFile: "\(folder)/pg.log", encoding: .utf8)) ?? ""
                throw ClusterError(message: "PostgreSQL did not start: \(log)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Starts one of PostgreSQL's programs, as `postgres` when we are root
    /// (`setpriv` execs it, so the process is the program itself).
    private static func process(_ program: String, _ arguments: [String], log: String? = nil) throws -> Process {
        let process = Process()
        let path = "\(programs)/\(program)"
        if geteuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        let output = log.flatMap { FileHandle(forWritingAtPath: $0) } ?? FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        process.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        try process.run()
        return process
    }

    /// A loopback port nothing listens on now.
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw ClusterError(message: "no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

extension Process {
    /// Waits for the exit; throws unless the status is 0.
    fileprivate func finish() throws {
        waitUntilExit()
        guard terminationStatus == 0 else {
            throw ClusterError(message: "\(arguments ?? []) failed with status \(terminationStatus)")
        }
    }
}

struct ClusterError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Runs a suite with a cluster of its own (`PostgresCluster.current`).
struct PostgresClusterTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard PostgresCluster.isInstalled else {
            throw ClusterError(
                message:
                    "WEBTABLEVIEW_REQUIRE_POSTGRES=1 but PostgreSQL is not installed (no \(PostgresCluster.programs)/initdb)"
            )
        }
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        try await PostgresCluster.$current.withValue(cluster) { try await function() }
    }
}

extension Trait where Self == PostgresClusterTrait {
    static var postgresCluster: Self { Self() }
}
