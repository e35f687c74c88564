import Foundation
import MicroHTTPTesting
import Synchronization

/// A child process that cannot outlive its test or hang it: a watchdog ends it
/// with SIGKILL once `limit` has passed, so a child that never prints or never
/// exits fails its test (killed, not exited; its output ends) instead of
/// stalling the run; and one still running when its test ends is killed then.
///
/// The limit is stretched by `WEBTABLEVIEW_TEST_TIMEOUT_SCALE`, as the test
/// helpers' waits are (MicroHTTPTesting's `TestTimeouts`): a sanitizer's build
/// of the server runs many times slower, and a server that lives a minute in a
/// plain run was killed while it still answered in a loaded sanitizer run.
public final class Child {
    public let process = Process()
    public let output = Pipe()
    private let watchdog: Watchdog

    /// - Parameter input: the child's standard input, written whole and closed; none without it.
    public init(
        _ executable: URL, _ arguments: [String], mergingErrors: Bool, input: Data? = nil,
        limit: Duration = .seconds(60)
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = mergingErrors ? output : FileHandle.nullDevice
        let inputPipe = input.map { _ in Pipe() }
        if let inputPipe { process.standardInput = inputPipe }
        try process.run()
        watchdog = Watchdog(process.processIdentifier, limit: TestTimeouts.scaled(limit))
        if let input, let inputPipe {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
    }

    /// Waits for the exit and answers its status (a signal's number when killed).
    public func exitStatus() -> Int32 {
        process.waitUntilExit()
        watchdog.standDown()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        watchdog.standDown()
    }
}

/// Sends SIGKILL to a process id after a limit, unless stood down first.
public final class Watchdog: Sendable {
    private let done = Mutex(false)

    public init(_ process: pid_t, limit: Duration) {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            done.withLock { done in
                if !done { kill(process, SIGKILL) }
            }
        }
    }

    /// The process has been waited for: its id may be reused, so never signal it.
    public func standDown() {
        done.withLock { $0 = true }
    }
}
