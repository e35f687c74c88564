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

    @Test func aReloadBelowTheVersionLeavesTheReadWaiting() throws {
        let (woken, _) = waiter(for: 9)
        let later = Table(id: "t", version: 5, sections: [Section(id: "s", rows: [])])
        try store.reload(SnapshotTable(table: later, sequence: 0), replaying: [], mark: 0)
        #expect(woken.wait(timeout: .now() + 0.2) == .timedOut)
    }
}
