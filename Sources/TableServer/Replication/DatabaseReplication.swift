import Dispatch
import Foundation
import JSON
import Logging
import Synchronization
import TableDatabase
import TableJournal
import TableModel

/// A replica's link to the database replicas share (docs/SCALING.md):
///
/// - As the store's `TableLog`, it makes every edit one transaction that locks
///   the table's row, catches this replica up, has the store validate the edit
///   against the latest version, and commits it before the store applies it.
/// - Its follower thread `LISTEN`s for notices of new versions. An edit's
///   notice carries its changes when they fit (`TableNotice.carried`), and a
///   replica at the version before them applies them at once; otherwise it
///   reads the changes from the database. A notice is only a hint: after every
///   (re)connection, and every `pollInterval`, it compares every table with the
///   database, so a lost notice delays a change and never loses it.
/// - Every `snapshotEvery` versions of a table, it stores a snapshot (on a
///   background queue) and trims what is older than `--history` needs.
///
/// Readiness (`isReady`) is true while the follower's connection is up and
/// the replica has caught up after connecting.
final class DatabaseReplication: TableLog {
    let database: TableDatabase
    let history: Int
    let logger: Logger
    /// How often the follower compares every table with the database.
    let pollInterval: Duration = .seconds(2)
    private let store = Mutex<TableStore?>(nil)
    private let ready = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)
    private let snapshots = DispatchQueue(label: "webtableview.database.snapshots")
    /// Held by each sync of the store with the database (`catchUp`, and
    /// `sync(_:)` of a notice, which the follower, an edit's or a read's
    /// look-up and a refresh run): a sync reads the database and changes the
    /// store as one step, so one that read a table before it was deleted
    /// cannot put it back after another sync took it out.
    private let syncing = Mutex<Void>(())

    init(database: TableDatabase, history: Int, logger: Logger) {
        self.database = database
        self.history = history
        self.logger = logger
    }

    var isReady: Bool { ready.load(ordering: .acquiring) }

    // MARK: Start and stop

    /// Seeds an empty database with `tables` (only the first replica ever does),
    /// then loads every table into `store`.
    func load(_ tables: [Table], into store: TableStore) throws {
        self.store.withLock { $0 = store }
        let seeded = try database.seed(
            tables.map { table in
                var writer = JSONWriter()
                table.writeJSON(to: &writer, withAccess: true)
                return (table.id, table.version, writer.bytes)
            })
        logger.info(
            seeded
                ? "database: seeded with the given tables"
                : "database: tables loaded; --data and demo tables seed only an empty database")
        for head in try database.heads() {
            try install(head.id)
        }
        ready.store(true, ordering: .releasing)
    }

    /// Starts the follower thread.
    func start() {
        let thread = Thread { [self] in follow() }
        thread.name = "webtableview.database.follower"
        thread.start()
    }

    /// Stops the follower (within its wait of half a second) and forgets the store.
    func stop() {
        stopping.store(true, ordering: .releasing)
        stopped.wait()
        snapshots.sync {}
        store.withLock { $0 = nil }
    }

    private var currentStore: TableStore? { store.withLock { $0 } }

    // MARK: TableLog

    /// Each record is a round trip and a commit.
    var recordsAtOnce: Bool { false }

    /// While the follower finds PostgreSQL out of reach, edits are refused at
    /// once rather than each waiting for its own connection attempt (with the
    /// table's lock held, which readers of the table wait for).
    private func requireReady() throws {
        guard isReady else { throw TableServerError.storageUnavailable("PostgreSQL is out of reach; reconnecting") }
    }

    func recordCreation(of table: Table, key: ChangeKey?) throws -> UInt64 {
        try requireReady()
        var writer = JSONWriter()
        table.writeJSON(to: &writer, withAccess: true)
        let created: Int64?
        do {
            created = try database.create(table.id, version: table.version, json: writer.bytes, key: key?.stored)
        } catch let error as DatabaseError where error.kind == .outcomeUnknown {
            throw TableServerError.outcomeUnknown(error.message)
        } catch let error as DatabaseError where error.kind == .keyTaken {
            throw TableServerError.idempotencyKeyInUse(key?.key ?? "")
        }
        guard let incarnation = created else { throw TableServerError.tableExists(table.id) }
        return UInt64(incarnation)
    }

    func recordEdit(
        of id: String, mark: UInt64, version: Int,
        _ edit: (_ missed: [LoggedChange]) throws -> LoggedEdit
    ) throws -> UInt64 {
        try requireReady()
        var committed = version
        var deletedUnder: ChangeKey?
        do {
            try database.edit(id, incarnation: Int64(mark), version: version) { missed in
                let logged = try edit(missed.map { LoggedChange(version: $0.version, json: $0.json) })
                switch logged {
                case .nothing: return .nothing
                case .changes(let changes):
                    committed = (missed.last?.version ?? version) + changes.count
                    return .changes(changes)
                case .deletion(let key):
                    deletedUnder = key
                    return .deletion(key?.stored)
                }
            }
        } catch let error as DatabaseError {
            switch error.kind {
            case .tableMissing:
                // The store looks the table up (`lookUp`) before it answers.
                throw TableServerError.tableGone(id)
            case .historyGone:
                refresh(id)
                throw TableServerError.storageUnavailable("this replica is loading \"\(id)\" again")
            case .outcomeUnknown:
                throw TableServerError.outcomeUnknown(error.message)
            case .keyTaken:
                throw TableServerError.idempotencyKeyInUse(deletedUnder?.key ?? "")
            case .unavailable, .rejected, .statement, .inconsistent:
                throw TableServerError.storageUnavailable(error.message)
            }
        }
        let every = database.options.snapshotEvery
        if committed / every > version / every { snapshot(id, mark: mark) }
        return mark
    }

    /// Asks the database for table `id` now and brings this replica's copy up
    /// to date: loaded when it was created elsewhere, replaced when it was
    /// re-created, taken out when it was deleted.
    func lookUp(_ id: String) throws -> Bool {
        try requireReady()
        do {
            try sync(TableNotice(id: id, version: -1))
        } catch let error as DatabaseError {
            throw TableServerError.storageUnavailable(error.message)
        }
        return true
    }

    /// Looks the key of a create or a delete up in the database.
    func directoryKey(_ key: String) throws -> ChangeKey? {
        try requireReady()
        do {
            return try database.storedKey(key).map(ChangeKey.init(stored:))
        } catch let error as DatabaseError {
            throw TableServerError.storageUnavailable(error.message)
        }
    }

    // MARK: Following

    private func follow() {
        var backoff = 0.1
        while !stopping.load(ordering: .acquiring) {
            do {
                let notices = try database.listen()
                try catchUp()
                if !isReady { logger.notice("database: connected and caught up; ready") }
                ready.store(true, ordering: .releasing)
                backoff = 0.1
                var lastPoll = ContinuousClock.now
                while !stopping.load(ordering: .acquiring) {
                    for notice in try notices.next(waitingUpTo: 500) {
                        try sync(notice)
                    }
                    if ContinuousClock.now - lastPoll > pollInterval {
                        try catchUp()
                        lastPoll = ContinuousClock.now
                    }
                }
            } catch {
                if isReady { logger.warning("database: \(error); not ready, reconnecting") }
                ready.store(false, ordering: .releasing)
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, 0.5)
            }
        }
        stopped.signal()
    }

    /// Compares every table with the database and brings each up to date.
    private func catchUp() throws {
        try syncing.withLock { _ in
            guard let store = currentStore else { return }
            let heads = try database.heads()
            let known = Set(heads.map(\.id))
            for (id, position) in store.logPositions() where !known.contains(id) {
                try sync(id, position: position)
            }
            for head in heads {
                try sync(head)
            }
        }
    }

    /// Brings table `notice.id` up to date with the notice, or with the
    /// database when the notice is not enough (`syncing` held).
    private func sync(_ notice: TableNotice) throws {
        try syncing.withLock { _ in
            if notice.version >= 0, let local = currentStore?.logPosition(notice.id), local.version >= notice.version {
                return
            }
            if let carried = notice.carried, let store = currentStore, let local = store.logPosition(notice.id),
                local.mark == UInt64(carried.incarnation)
            {
                // The changes came with the notice: no round trip when they follow on.
                let first = notice.version - carried.changes.count + 1
                let changes = carried.changes.enumerated().map {
                    LoggedChange(version: first + $0.offset, json: $0.element)
                }
                if try store.follow(notice.id, mark: local.mark, changes: changes),
                    let now = store.logPosition(notice.id), now.version >= notice.version
                {
                    return
                }
            }
            if let head = try database.head(of: notice.id) {
                try sync(head)
            } else if let local = currentStore?.logPosition(notice.id) {
                try sync(notice.id, position: local)
            }
        }
    }

    /// A table this replica holds that the database's list did not: confirmed
    /// gone (it may have been created since the list was read), it is taken out.
    private func sync(_ id: String, position: TableStore.LogPosition) throws {
        if let head = try database.head(of: id) {
            try sync(head)
        } else {
            currentStore?.removeLogged(id, mark: position.mark)
        }
    }

    private func sync(_ head: TableHead) throws {
        guard let store = currentStore else { return }
        guard let local = store.logPosition(head.id) else {
            try install(head.id)
            return
        }
        if local.mark != UInt64(head.incarnation) {
            store.removeLogged(head.id, mark: local.mark)
            try install(head.id)
            return
        }
        guard head.version > local.version else { return }
        let changes = try database.changes(of: head.incarnation, after: local.version)
            .map { LoggedChange(version: $0.version, json: $0.json) }
        if try !store.follow(head.id, mark: local.mark, changes: changes) {
            try reload(head.id)
        }
    }

    /// Loads table `id` from the database into the store (when it is not there).
    private func install(_ id: String) throws {
        guard let store = currentStore, let stored = try database.load(id, history: history) else { return }
        let (table, changes) = try decode(stored)
        do {
            try store.restore(table, replaying: changes, mark: UInt64(stored.head.incarnation))
        } catch TableServerError.tableExists {
            // Created through this replica meanwhile: it is there already.
        }
    }

    private func reload(_ id: String) throws {
        guard let store = currentStore, let stored = try database.load(id, history: history) else { return }
        let (table, changes) = try decode(stored)
        logger.notice("database: \"\(id)\" loaded again: the changes it lacked were trimmed")
        try store.reload(table, replaying: changes, mark: UInt64(stored.head.incarnation))
    }

    private func decode(_ stored: StoredTable) throws -> (SnapshotTable, [LoggedChange]) {
        let table: SnapshotTable
        do {
            table = try SnapshotTable(
                document: RecordedDecoding.parser.parse(stored.snapshot), sequence: 0, in: "database snapshot")
        } catch {
            throw TableServerError.storageInconsistent("the snapshot of \"\(stored.head.id)\" does not read: \(error)")
        }
        return (table, stored.changes.map { LoggedChange(version: $0.version, json: $0.json) })
    }

    /// Asks the follower's work to look at one table soon (after an edit found
    /// it deleted, re-created or trimmed elsewhere).
    private func refresh(_ id: String) {
        snapshots.async { [self] in
            do {
                try sync(TableNotice(id: id, version: -1))
            } catch {
                logger.warning("database: cannot refresh \"\(id)\": \(error)")
            }
        }
    }

    // MARK: Snapshots

    /// Stores the table as it is now (on the background queue) and trims.
    private func snapshot(_ id: String, mark: UInt64) {
        snapshots.async { [self] in
            guard let (stored, tableMark) = currentStore?.loggedTable(id), tableMark == mark else { return }
            let version = stored.table.version
            do {
                try database.storeSnapshot(
                    incarnation: Int64(mark), version: version, json: stored.payload, history: history)
            } catch {
                logger.warning("database: snapshot of \"\(id)\" at version \(version) failed: \(error)")
            }
        }
    }
}

extension ChangeKey {
    /// The key as the database keeps the key of a create or a delete.
    var stored: StoredKey {
        StoredKey(key: key, digest: digest, madeAt: madeAt)
    }

    /// The key of a create or a delete, as the database kept it.
    init(stored: StoredKey) {
        self.init(key: stored.key, digest: stored.digest, madeAt: stored.madeAt)
    }
}
