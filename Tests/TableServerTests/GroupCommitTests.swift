import Dispatch
import Foundation
import Synchronization
import TableJournal
import TableModel
import TableRendering
import TableServerTesting
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
    /// Given a journal, it records there too, once released.
    final class HeldLog: TableLog, Sendable {
        struct Failure: Error {}

        /// Each record: the version it was validated on, and its changes.
        let records = Mutex<[(version: Int, changes: Int)]>([])
        /// The table of each record, in the order they began.
        let tables = Mutex<[String]>([])
        let failing = Atomic<Bool>(false)
        /// Whether a creation's record is held too (as an edit's always is).
        let holdsCreations = Atomic<Bool>(false)
        private let entered = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)
        private let journal: Journal?

        init(forwardingTo journal: Journal? = nil) {
            self.journal = journal
        }

        var recordsAtOnce: Bool { false }
        func recordCreation(of table: Table, key: ChangeKey?) throws -> UInt64 {
            if holdsCreations.load(ordering: .acquiring) {
                tables.withLock { $0.append(table.id) }
                entered.signal()
                gate.wait()
            }
            return try journal?.recordCreation(of: table, key: key) ?? 1
        }
        func directoryKey(_ key: String) -> ChangeKey? { nil }

        func lookUp(_ id: String) -> Bool { false }

        func recordEdit(
            of id: String, mark: UInt64, version: Int,
            _ edit: (_ missed: [LoggedChange]) throws -> LoggedEdit
        ) throws -> UInt64 {
            let logged = try edit([])
            tables.withLock { $0.append(id) }
            entered.signal()
            gate.wait()
            if failing.load(ordering: .acquiring) { throw Failure() }
            if case .changes(let changes) = logged {
                records.withLock { $0.append((version, changes.count)) }
            }
            return try journal?.recordEdit(of: id, mark: mark, version: version) { _ in logged } ?? mark
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
        store = try Self.store(log: log, perTable: 1_000)
    }

    /// A store with table "t", its group commits led on one lead thread, at
    /// most `perTable` edits of a table waiting.
    static func store(log: HeldLog, perTable: Int) throws -> TableStore {
        let renderer = try TableRenderer(templatesDirectory: packageRoot.appendingPathComponent("Templates").path)
        let store = TableStore(
            history: 10_000, renderer: renderer, log: log,
            leaderLimits: GroupLeaders.Limits(leadThreads: 1, perTable: perTable))
        try store.create(Table(id: "t", sections: [Section(id: "s", rows: [])]))
        return store
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

    /// The first answer `repeated`, an edit sent again with the key of one
    /// made, is given, once `log` has let one record through; nil (and an
    /// issue recorded) when it was answered otherwise.
    static func firstAnswer(of repeated: Edit, letThrough log: HeldLog) throws -> IdempotencyKeys.Answer? {
        try log.awaitRecord()
        log.release()
        guard case .failure(let error) = try repeated.wait(), let answer = (error as? IdempotentRepeat)?.answer else {
            Issue.record("the repeat was not answered as the first")
            return nil
        }
        return answer
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

    /// Inserts a row with id and text `text` into table `table` as a change
    /// made from this thread, which returns at once: answered through
    /// `answers`, under `text`.
    func change(_ table: String = "t", text: String, in store: TableStore? = nil, into answers: Answers) {
        let stage = TableStore.batchStage(ifMatch: nil) { _ in
            Batch(insertRows: [.init(at: TableIndexPath(0, 0), row: Row(id: text, text: text))])
        }
        (store ?? self.store).edit(table, key: nil, stage) { result in
            answers.add(text, result.map(\.table.version))
        }
    }

    /// The store's lead threads and bounds.
    var leaders: GroupLeaders { store.leaders! }

    /// The answers of changes that wait on no thread, in the order they came.
    final class Answers: Sendable {
        let list = Mutex<[(String, Result<Int, any Error>)]>([])
        /// Signalled once for each answer.
        private let arrived = DispatchSemaphore(value: 0)

        func add(_ text: String, _ result: Result<Int, any Error>) {
            list.withLock { $0.append((text, result)) }
            arrived.signal()
        }

        /// Waits for `count` answers; answers them as text and version.
        func await(_ count: Int) throws -> [String] {
            let deadline = DispatchTime.now() + GroupCommitTests.patience
            for _ in 0..<count {
                guard arrived.wait(timeout: deadline) == .success else {
                    throw TimedOut(description: "\(count) answers did not come")
                }
            }
            return list.withLock { list in
                list.map { text, result in
                    switch result {
                    case .success(let version): "\(text) \(version)"
                    case .failure(let error): "\(text) \((error as? TableServerError)?.type ?? "refused")"
                    }
                }
            }
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

        let answer = try Self.firstAnswer(of: insert(text: "a", key: key), letThrough: log)
        #expect(answer?.version == 1)
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

    /// A change queues from the calling thread and returns while its group
    /// commits: it holds no thread. Its group is led on a lead thread, which
    /// leads the next group too, whatever thread its edits came from. Every
    /// edit is answered once, with its version, a group's edits in order.
    @Test func changesWaitOnNoThreadAndAreAnsweredWithTheirVersions() throws {
        let answers = Answers()
        change(text: "a", into: answers)
        try log.awaitRecord()
        change(text: "b", into: answers)
        change(text: "c", into: answers)
        #expect(leaders.waiting == 3)
        log.release()
        // "b" and "c" make the next group, led by the same thread.
        try log.awaitRecord()
        let onThread = insert(text: "d")
        try awaitQueued(1)
        change(text: "e", into: answers)
        try awaitQueued(2)
        log.release()
        // "d" and "e": one group, led by the same thread again.
        try log.awaitRecord()
        log.release()
        #expect(try onThread.wait().get() == 4)
        let answered = try answers.await(4)
        #expect(answered == ["a 1", "b 2", "c 3", "e 5"])
        #expect(log.records.withLock { $0.map { [$0.version, $0.changes] } } == [[0, 1], [1, 2], [3, 2]])
        #expect(try rowIDs() == ["e", "d", "c", "b", "a"])
        #expect(leaders.waiting == 0)
        #expect(leaders.threads == 1)
    }

    /// With every lead thread busy, a table's next group queues behind the
    /// lead of another table that waits: their commits take turns.
    @Test func tablesTakeTurnsForTheLeadThreads() throws {
        try store.create(Table(id: "u", sections: [Section(id: "s", rows: [])]))
        let answers = Answers()
        change(text: "t1", into: answers)
        try log.awaitRecord()
        change(text: "t2", into: answers)
        change("u", text: "u1", into: answers)
        #expect(leaders.leadsWait)
        log.release()
        try log.awaitRecord()
        log.release()
        try log.awaitRecord()
        log.release()
        #expect(try answers.await(3) == ["t1 1", "u1 1", "t2 2"])
        #expect(log.tables.withLock { $0 } == ["t", "u", "t"])
    }

    /// A change refused at once (a bound reached) is answered with the
    /// refusal before the call returns, makes nothing and holds no place in
    /// the bound.
    @Test func aChangeBeyondTheBoundIsRefusedAndMakesNothing() throws {
        let bounded = try Self.store(log: log, perTable: 2)
        let answers = Answers()
        change(text: "a", in: bounded, into: answers)
        try log.awaitRecord()
        change(text: "b", in: bounded, into: answers)
        change(text: "c", in: bounded, into: answers)
        #expect(try answers.await(1) == ["c overloaded"])
        log.release()
        try log.awaitRecord()
        log.release()
        #expect(try answers.await(2) == ["c overloaded", "a 1", "b 2"])
        #expect(try bounded.table("t").sections[0].rows.map(\.id) == ["b", "a"])
        #expect(bounded.leaders?.waiting == 0)
    }

    /// With the journal (`fsync` always), edits waiting for their group's
    /// record hold no thread: fifty keyed edits are each queued from this
    /// one thread, which gets every call back at once while the record is
    /// held, and the store has started one lead thread in all. Once the
    /// record goes through, every edit is answered as it was before: its
    /// version, in order; a key in flight 409; a repeat as the first.
    @Test func editsWaitingForTheJournalHoldNoThreads() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // `fsync` always: each record is on the disk before its edits are made.
        let journal = try Journal.open(JournalOptions(directory: directory.path)).journal
        defer { journal.close() }
        let held = HeldLog(forwardingTo: journal)
        let store = try Self.store(log: held, perTable: 1_000)
        let answers = Answers()
        let keys = (0..<50).map { IdempotentRequest(key: "k\($0)", digest: "d\($0)", madeAt: IdempotencyKeys.now()) }
        for (index, key) in keys.enumerated() {
            let stage = TableStore.batchStage(ifMatch: nil) { _ in
                Batch(insertRows: [.init(at: TableIndexPath(0, 0), row: Row(id: "r\(index)", text: "r\(index)"))])
            }
            store.edit("t", key: key, stage) { answers.add("r\(index)", $0.map(\.table.version)) }
            if index == 0 { try held.awaitRecord() }
        }
        // The same key as an edit in flight: 409 once its group is answered.
        store.edit("t", key: keys[7], TableStore.batchStage(ifMatch: nil) { _ in Batch() }) {
            answers.add("again", $0.map(\.table.version))
        }
        #expect(store.leaders?.waiting == 51)
        #expect(store.leaders?.threads == 1)
        #expect(try answers.await(0).isEmpty)
        held.release()
        try held.awaitRecord()
        held.release()
        let answered = try answers.await(51)
        #expect(answered == (0..<50).map { "r\($0) \($0 + 1)" } + ["again idempotency-key-in-use"])
        #expect(try store.table("t").version == 50)
        // A repeat of a key made: answered as the first, nothing recorded.
        let repeated = Edit {
            try store.apply("t", ifMatch: nil, key: keys[3]) { _ in
                Batch(insertRows: [.init(at: TableIndexPath(0, 0), row: Row(id: "r3", text: "r3"))])
            }.version
        }
        #expect(try Self.firstAnswer(of: repeated, letThrough: held)?.version == 4)
        #expect(held.records.withLock { $0.map { [$0.version, $0.changes] } } == [[0, 1], [1, 49]])
    }

    /// A table's creation through a log that does not record at once is
    /// recorded on a lead thread, as a group of one: the caller gets its call
    /// back at once while the record is held, counted among the waiting
    /// edits, and the answer once the record goes through.
    @Test func aCreationWaitingForTheLogHoldsNoThread() throws {
        log.holdsCreations.store(true, ordering: .releasing)
        let answers = Answers()
        store.create(Table(id: "new", sections: []), key: nil) { answers.add("new", $0.map(\.version)) }
        try log.awaitRecord()
        #expect(store.leaders?.waiting == 1)
        #expect(try answers.await(0).isEmpty)
        log.release()
        #expect(try answers.await(1) == ["new 0"])
        #expect(store.leaders?.waiting == 0)
        #expect(try store.table("new").version == 0)
        #expect(log.tables.withLock { $0 } == ["new"])
    }
}
