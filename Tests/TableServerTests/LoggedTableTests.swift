import Dispatch
import Synchronization
import TableJournal
import TableModel
import TableRendering
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

    @Test func aReloadBelowTheVersionLeavesTheReadWaiting() throws {
        let (woken, _) = waiter(for: 9)
        let later = Table(id: "t", version: 5, sections: [Section(id: "s", rows: [])])
        try store.reload(SnapshotTable(table: later, sequence: 0), replaying: [], mark: 0)
        #expect(woken.wait(timeout: .now() + 0.2) == .timedOut)
    }
}
