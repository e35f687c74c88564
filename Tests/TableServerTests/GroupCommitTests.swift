import Dispatch
import Foundation
import Synchronization
import TableModel
import TableRendering
import Testing
@testable import TableServer

/// The store's group commit (`GroupCommit`), with a log that commits in groups
/// and holds each record until the test lets it go: edits that arrive while a
/// commit is in flight are validated against the table as the edits before them
/// leave it, recorded together in one record, made and answered only after
/// it; a failed record answers and makes none of them, nor any queued behind.
@Suite(.timeLimit(.minutes(1))) struct GroupCommitTests {
    /// How long any wait of these tests may take before it fails the test.
    static let patience: DispatchTimeInterval = .seconds(10)

    struct TimedOut: Error, CustomStringConvertible {
        let description: String
    }

    /// A log that commits in groups, records each edit's changes, and makes
    /// every record wait for `release()`; it fails the records while `failing`.
    final class HeldLog: TableLog, Sendable {
        struct Failure: Error {}

        var commitsInGroups: Bool { true }
        /// Each record: the version it was validated on, and its changes.
        let records = Mutex<[(version: Int, changes: Int)]>([])
        let failing = Atomic<Bool>(false)
        private let entered = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)

        func recordCreation(of table: Table, key: ChangeKey?) throws -> UInt64 { 1 }
        func directoryKey(_ key: String) -> ChangeKey? { nil }

        func lookUp(_ id: String) -> Bool { false }

        func recordEdit(
            of id: String, mark: UInt64, version: Int,
            _ edit: (_ missed: [LoggedChange]) throws -> LoggedEdit
        ) throws -> UInt64 {
            let logged = try edit([])
            entered.signal()
            gate.wait()
            if failing.load(ordering: .acquiring) { throw Failure() }
            if case .changes(let changes) = logged {
                records.withLock { $0.append((version, changes.count)) }
            }
            return mark
        }

        /// Waits until a record is in flight.
        func awaitRecord() throws {
            guard entered.wait(timeout: .now() + GroupCommitTests.patience) == .success else {
                throw TimedOut(description: "no record began")
            }
        }

        /// Lets the record in flight finish.
        func release() { gate.signal() }
    }

    let log = HeldLog()
    let store: TableStore

    init() throws {
        let renderer = try TableRenderer(templatesDirectory: packageRoot.appendingPathComponent("Templates").path)
        store = TableStore(history: 10_000, renderer: renderer, log: log)
        try store.create(Table(id: "t", sections: [Section(id: "s", rows: [])]))
    }

    /// Makes an edit on its own thread; `answer` is the version or the error.
    final class Edit: Sendable {
        let answer = Mutex<Result<Int, any Error>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        init(_ make: @escaping @Sendable () throws -> Int) {
            Thread.detachNewThread { [self] in
                let result = Result { try make() }
                answer.withLock { $0 = result }
                done.signal()
            }
        }

        func wait() throws -> Result<Int, any Error> {
            guard done.wait(timeout: .now() + GroupCommitTests.patience) == .success else {
                throw TimedOut(description: "an edit was not answered")
            }
            done.signal()
            return answer.withLock { $0! }
        }
    }

    /// Inserts a row with id and text `text` on its own thread.
    func insert(text: String, ifMatch: String? = nil, key: IdempotentRequest? = nil) -> Edit {
        Edit { [store] in
            try store.apply("t", ifMatch: ifMatch, key: key) { _ in
                Batch(insertRows: [.init(at: TableIndexPath(0, 0), row: Row(id: text, text: text))])
            }.version
        }
    }

    /// Waits until `count` edits wait behind the commit in flight.
    func awaitQueued(_ count: Int) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try store.handle("t").withAnyState({ $0.group.queued.count }) < count {
            guard ContinuousClock.now < deadline else {
                throw TimedOut(description: "\(count) edits did not queue")
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    func rowIDs() throws -> [String?] {
        try store.table("t").sections[0].rows.map(\.id)
    }

    @Test func editsQueuedBehindACommitAreRecordedTogetherOnTheTip() throws {
        let first = insert(text: "a")
        try log.awaitRecord()
        // Queued behind "a", not committed yet: If-Match is judged on version 1.
        let onTip = insert(text: "b", ifMatch: "\"1\"")
        try awaitQueued(1)
        let stale = insert(text: "stale", ifMatch: "\"0\"")
        try awaitQueued(2)
        let last = insert(text: "c")
        try awaitQueued(3)
        // Nothing is made while the commit is in flight.
        #expect(try store.table("t").version == 0)
        log.release()
        try log.awaitRecord()
        log.release()

        #expect(try first.wait().get() == 1)
        #expect(try onTip.wait().get() == 2)
        #expect(throws: TableServerError.self) { try stale.wait().get() }
        #expect(try last.wait().get() == 3)
        // "a" alone, then "b" and "c" in one record on version 1.
        #expect(log.records.withLock { $0.map { [$0.version, $0.changes] } } == [[0, 1], [1, 2]])
        #expect(try rowIDs() == ["c", "b", "a"])
        let feed = try store.changes("t", since: 0)
        #expect(feed.current == 3 && feed.changes?.map(\.version) == [1, 2, 3])
    }

    /// An `Idempotency-Key` of an edit still committing is `409`
    /// `idempotency-key-in-use`; once it is made, a repeat is answered with
    /// its answer and nothing more is recorded.
    @Test func aKeyInFlightIsInUseAndARepeatAfterItsCommitIsAnsweredAsTheFirst() throws {
        let key = IdempotentRequest(key: "k", digest: "d", madeAt: IdempotencyKeys.now())
        let first = insert(text: "a", key: key)
        try log.awaitRecord()
        let racing = insert(text: "a", key: key)
        try awaitQueued(1)
        log.release()
        #expect(try first.wait().get() == 1)
        try log.awaitRecord()
        log.release()
        let raced = try racing.wait()
        #expect(throws: TableServerError.self) { try raced.get() }
        if case .failure(let error) = raced { #expect((error as? TableServerError)?.type == "idempotency-key-in-use") }

        let repeated = insert(text: "a", key: key)
        try log.awaitRecord()
        log.release()
        guard case .failure(let error) = try repeated.wait(), let answer = (error as? IdempotentRepeat)?.answer else {
            Issue.record("the repeat was not answered as the first")
            return
        }
        #expect(answer.version == 1)
        #expect(log.records.withLock { $0.count } == 1)
        #expect(try rowIDs() == ["a"])
    }

    /// The key of a table's delete still committing makes another delete with
    /// it `409` `idempotency-key-in-use` at once; once the table is deleted, a
    /// repeat is answered as the first, and the log sees no second record.
    @Test func aDeletesKeyInFlightIsInUseAndARepeatIsAnsweredOnceTheTableIsGone() throws {
        let key = IdempotentRequest(key: "d", digest: "delete", madeAt: IdempotencyKeys.now())
        let first = Edit { [store] in
            try store.delete("t", ifMatch: nil, key: key)
            return 0
        }
        try log.awaitRecord()
        let racing = #expect(throws: TableServerError.self) { try store.delete("t", ifMatch: nil, key: key) }
        #expect(racing?.type == "idempotency-key-in-use")
        log.release()
        #expect(try first.wait().get() == 0)
        #expect(throws: IdempotentRepeat.self) { try store.delete("t", ifMatch: nil, key: key) }
        #expect(throws: TableServerError.self) { try store.table("t") }
    }

    @Test func aFailedRecordAnswersAndMakesNothingOfItsGroupOrBehindIt() throws {
        let kept = insert(text: "kept")
        try log.awaitRecord()
        log.release()
        #expect(try kept.wait().get() == 1)
        let first = insert(text: "a")
        try log.awaitRecord()
        let queued = [insert(text: "b", ifMatch: "\"2\""), insert(text: "c")]
        try awaitQueued(2)
        log.failing.store(true, ordering: .releasing)
        log.release()

        for insert in [first] + queued {
            #expect(throws: TableServerError.self) { try insert.wait().get() }
        }
        #expect(try store.table("t").version == 1)
        #expect(try rowIDs() == ["kept"])
        #expect(try store.changes("t", since: 0).changes?.map(\.version) == [1])
        // Nothing waits any more; the next edit takes version 2.
        log.failing.store(false, ordering: .releasing)
        let next = insert(text: "d")
        try log.awaitRecord()
        log.release()
        #expect(try next.wait().get() == 2)
        #expect(try rowIDs() == ["d", "kept"])
        #expect(log.records.withLock { $0.map(\.version) } == [0, 1])
    }
}
