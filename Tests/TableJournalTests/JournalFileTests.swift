import Foundation
import Synchronization
import Testing
@testable import TableJournal

/// The system-call layer: one place runs every call again while a signal
/// interrupts it (`EINTR`).
@Suite(.serialized) struct JournalFileTests {
    /// A call failing `failures` times with `error`, then answering 7.
    final class Flaky: Sendable {
        let calls = Mutex(0)
        let failures: Int
        let error: Int32

        init(failures: Int, error: Int32) {
            self.failures = failures
            self.error = error
        }

        func call() -> Int32 {
            let count = calls.withLock { count in
                count += 1
                return count
            }
            guard count > failures else {
                errno = error
                return -1
            }
            return 7
        }
    }

    @Test func anInterruptedCallIsRunAgainUntilItAnswers() {
        let flaky = Flaky(failures: 3, error: EINTR)
        #expect(JournalFile.retryingInterrupts(flaky.call) == 7)
        #expect(flaky.calls.withLock { $0 } == 4)
    }

    @Test(arguments: [EIO, ENOSPC, EAGAIN])
    func anyOtherFailureIsAnsweredAtOnceWithItsErrno(_ error: Int32) {
        let flaky = Flaky(failures: 1, error: error)
        #expect(JournalFile.retryingInterrupts(flaky.call) == -1)
        #expect(errno == error)
        #expect(flaky.calls.withLock { $0 } == 1)
    }

    @Test func anInterruptedOpendirIsRunAgain() {
        let calls = Mutex(0)
        let pointer = JournalFile.retryingInterrupts { () -> UnsafeMutableRawPointer? in
            let count = calls.withLock { count in
                count += 1
                return count
            }
            if count < 3 {
                errno = EINTR
                return nil
            }
            return UnsafeMutableRawPointer(bitPattern: 0x1000)
        }
        #expect(pointer == UnsafeMutableRawPointer(bitPattern: 0x1000))
        #expect(calls.withLock { $0 } == 3)
    }

    /// Polls `condition` for up to ten seconds.
    static func within10Seconds(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            usleep(1_000)
        }
        return true
    }

    /// Opening a FIFO for writing waits for a reader; signals caught by a handler
    /// installed without `SA_RESTART` interrupt that wait with `EINTR`. The open
    /// goes on, and the descriptor it answers writes.
    @Test func anOpenInterruptedBySignalsGoesOn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wtv-eintr-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)

        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in JournalFileTests.caught.add(1, ordering: .relaxed) }
        action.sa_flags = 0  // no SA_RESTART: a blocked open fails with EINTR
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        try #require(sigaction(SIGUSR1, &action, &previous) == 0)
        defer { sigaction(SIGUSR1, &previous, nil) }

        let opener = Opener()
        let thread = Thread { opener.run(fifo) }
        thread.start()
        try #require(Self.within10Seconds { opener.thread.withLock { $0 } != nil })
        let target = try #require(opener.thread.withLock { $0 })
        // The opener waits in open for as long as there is no reader.
        let before = Self.caught.load(ordering: .relaxed)
        for signal in 1...5 {
            usleep(20_000)
            // A thread that has ended (its open refused) must not be signalled.
            guard opener.result.withLock({ $0 }) == nil else { break }
            pthread_kill(target, SIGUSR1)
            // The next only once this one is caught: a signal sent while the
            // same one is still pending is merged with it, not counted twice.
            #expect(Self.within10Seconds { Self.caught.load(ordering: .relaxed) >= before + signal })
        }
        #expect(Self.caught.load(ordering: .relaxed) >= before + 5)

        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        try #require(Self.within10Seconds { opener.result.withLock { $0 } != nil })
        let outcome = try #require(opener.result.withLock { $0 })
        #expect(throws: Never.self) { try outcome.get() }
        var byte: UInt8 = 0
        #expect(Self.within10Seconds { read(reader, &byte, 1) == 1 })
        #expect(byte == UInt8(ascii: "!"))
    }

    static let caught = Atomic(0)

    /// Opens a path for writing on its own thread, writes "!" and keeps the outcome.
    final class Opener: Sendable {
        let thread = Mutex<pthread_t?>(nil)
        let result = Mutex<Result<Void, JournalError>?>(nil)

        func run(_ path: String) {
            // Threads may start with signals blocked; this one takes SIGUSR1.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            thread.withLock { $0 = pthread_self() }
            let outcome = Result { () throws(JournalError) in
                let file = try JournalFile.openForWriting(path)
                defer { file.close() }
                try file.write([UInt8(ascii: "!")])
            }
            result.withLock { $0 = outcome }
        }
    }
}
