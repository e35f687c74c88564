import Dispatch
import Foundation
import Synchronization
import TableJournal
import TableModel
import TableRendering
import TableServerTesting
import Testing
@testable import TableServer

/// Tables a replica brings in from the shared log (docs/SCALING.md): a read
/// waiting for a version (`Min-Version`) is answered as soon as the table
/// reaches it, however it got there.
@Suite(.timeLimit(.minutes(1))) struct LoggedTableTests {
    let store: TableStore

    init() throws {
        let renderer = try TableRenderer(templatesDirectory: packageRoot.appendingPathComponent("Templates").path)
        store = TableStore(history: 100, renderer: renderer)
        try store.create(Table(id: "t", sections: [Section(id: "s", rows: [Row(id: "a", text: "A")])]))
    }

    /// Waits, as a `Min-Version` read does, for table `t` at `version`;
    /// answers a semaphore signalled when it is, and whether it was reached.
    func waiter(for version: Int) -> (DispatchSemaphore, @Sendable () -> Bool?) {
        let woken = DispatchSemaphore(value: 0)
        let reached = Mutex<Bool?>(nil)
        store.whenHeld("t", atLeast: version, upTo: .seconds(30)) { outcome in
            reached.withLock { $0 = outcome }
            woken.signal()
        }
        return (woken, { reached.withLock { $0 } })
    }

    @Test func aReloadToASnapshotAtTheVersionWakesItsWaitingReads() throws {
        let (woken, reached) = waiter(for: 5)
        let later = Table(
            id: "t", version: 5, sections: [Section(id: "s", rows: [Row(id: "a", text: "A"), Row(id: "b", text: "B")])])
        try store.reload(SnapshotTable(table: later, sequence: 0), replaying: [], mark: 0)
        #expect(woken.wait(timeout: .now() + 5) == .success)
        #expect(reached() == true)
        #expect(try store.table("t").version == 5)
    }

    /// A table created through another replica and brought in with changes:
    /// a read woken by a replayed change's version finds the table (the
    /// replicas suite once saw 404 there, as the wake-up ran before the table
    /// was in the directory). Repeated, as the wake-up runs on another thread.
    @Test func aReadWokenByATableBroughtInFindsIt() throws {
        for attempt in 0..<200 {
            let id = "n\(attempt)"
            let found = Mutex<Bool?>(nil)
            let woken = DispatchSemaphore(value: 0)
            store.whenHeld(id, atLeast: 2, upTo: .seconds(30)) { [store] reached in
                found.withLock { $0 = reached && (try? store.table(id)) != nil }
                woken.signal()
            }
            let changes = (1...2).map { version in
                let row = Row(id: "r\(version)", text: "R")
                let batch = Batch(insertRows: [.init(at: TableIndexPath(0, version - 1), row: row)])
                return LoggedChange(version: version, json: batch.changeJSONBytes(version: version))
            }
            let stored = SnapshotTable(table: Table(id: id, sections: [Section(id: "s", rows: [])]), sequence: 0)
            try store.restore(stored, replaying: changes, mark: 0)
            #expect(woken.wait(timeout: .now() + 5) == .success)
            #expect(found.withLock { $0 } == true, "attempt \(attempt)")
        }
    }

    /// A read that starts waiting while the change it waits for is being
    /// applied, under the table's lock, is woken by it: the replicas suite
    /// once saw a `Min-Version` read wait its 2 s out, having asked the
    /// version after the change's wake-up and before the version was
    /// published as the lock was let go.
    @Test func aReadThatStartsWaitingAsItsChangeIsAppliedIsWoken() throws {
        let row = Row(id: "b", text: "B")
        let batch = Batch(insertRows: [.init(at: TableIndexPath(0, 1), row: row)])
        let change = LoggedChange(version: 1, json: batch.changeJSONBytes(version: 1))
        let woken = DispatchSemaphore(value: 0)
        try store.handle("t").withState { state in
            try store.applyLogged([change], in: &state)
            DispatchQueue.global().async { [store] in
                store.whenHeld("t", atLeast: 1, upTo: .seconds(30)) { reached in
                    if reached { woken.signal() }
                }
            }
            // The read asks the version once it is waiting: let it, before the lock is let go.
            while store.versionWaiters.count(for: "t") == 0 { Thread.sleep(forTimeInterval: 0.001) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(woken.wait(timeout: .now() + 5) == .success)
    }

    @Test func aReloadBelowTheVersionLeavesTheReadWaiting() throws {
        let (woken, _) = waiter(for: 9)
        let later = Table(id: "t", version: 5, sections: [Section(id: "s", rows: [])])
        try store.reload(SnapshotTable(table: later, sequence: 0), replaying: [], mark: 0)
        #expect(woken.wait(timeout: .now() + 0.2) == .timedOut)
    }
}
