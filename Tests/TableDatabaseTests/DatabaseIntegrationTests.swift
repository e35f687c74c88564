import Dispatch
import Synchronization
import TableModel
import Testing

@testable import TableDatabase

/// `TableDatabase` against a real PostgreSQL (a private cluster, a new database each test):
/// the schema, seeding, creation, the optimistic and the locked edit, what a
/// replica behind is handed, trimming, deletion and notices — the statements
/// as PostgreSQL runs them, not their text (docs/SCALING.md).
///
/// Skipped, with the reason, where PostgreSQL is not installed (a plain `swift
/// test` on a new machine); `make test` installs it and sets
/// `WEBTABLEVIEW_REQUIRE_POSTGRES=1`, which runs the suite anyway, so that a
/// missing PostgreSQL fails there instead of passing unseen.
@Suite(.enabled(if: PostgresCluster.isRunnable, PostgresCluster.skipReason), .postgresCluster, .timeLimit(.minutes(2)))
struct DatabaseIntegrationTests {
    /// Runs `body` with a new database of the suite's cluster.
    private func withDatabase(_ body: (DatabaseOptions) throws -> Void) throws {
        let cluster = try #require(PostgresCluster.current)
        var options = DatabaseOptions(url: try cluster.database())
        options.connections = 2
        try body(options)
    }

    private func change(_ version: Int) -> [UInt8] {
        Array(#"{"version":\#(version),"batch":{"deleteRows":[[0,0]]}}"#.utf8)
    }

    /// The versions of the schema recorded, in order.
    private func schemaVersions(_ database: TableDatabase) throws -> [String?] {
        try database.pool.withConnection { try $0.query("SELECT version FROM webtableview_schema ORDER BY version") }
            .map { $0[0] }
    }

    @Test func replicasStartingTogetherMigrateOnce() throws {
        try withDatabase { options in
            let opened = Mutex<[TableDatabase]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 3) { _ in
                do {
                    let database = try TableDatabase(options: options)
                    opened.withLock { $0.append(database) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let database = try #require(opened.withLock { $0.first })
            #expect(try schemaVersions(database) == (1...DatabaseSchema.version).map { "\($0)" })
            // Opening again migrates nothing.
            _ = try TableDatabase(options: options)
            #expect(try schemaVersions(database).count == DatabaseSchema.version)
        }
    }

    @Test func theFirstReplicaSeedsAndTheOthersFindTheTables() throws {
        try withDatabase { options in
            let first = try TableDatabase(options: options)
            let second = try TableDatabase(options: options)
            #expect(try first.seed([("a", 0, Array(#"{"id":"a"}"#.utf8)), ("b", 3, Array(#"{"id":"b"}"#.utf8))]))
            #expect(try !second.seed([("c", 0, Array(#"{"id":"c"}"#.utf8))]))
            #expect(try second.heads().map(\.id) == ["a", "b"])
            #expect(try second.head(of: "b")?.version == 3)
            #expect(try second.head(of: "c") == nil)
            let loaded = try #require(try second.load("b", history: 10))
            #expect(loaded.snapshotVersion == 3)
            #expect(loaded.snapshot == Array(#"{"id":"b"}"#.utf8))
            #expect(loaded.changes == [])
        }
    }

    @Test func anIdInUseIsRefusedAndARecreatedTableIsANewIncarnation() throws {
        try withDatabase { options in
            let database = try TableDatabase(options: options)
            let first = try #require(try database.create("t", version: 0, json: Array("{}".utf8)))
            #expect(try database.create("t", version: 0, json: Array("{}".utf8)) == nil)
            try database.edit("t", incarnation: first, version: 0) { _ in .deletion(nil) }
            #expect(try database.head(of: "t") == nil)
            let second = try #require(try database.create("t", version: 0, json: Array("{}".utf8)))
            #expect(second > first)
            // An edit of the old incarnation finds the table missing, and writes nothing.
            let refusal = #expect(throws: DatabaseError.self) {
                try database.edit("t", incarnation: first, version: 0) { _ in .changes([change(1)]) }
            }
            #expect(refusal?.kind == .tableMissing)
            #expect(try database.head(of: "t")?.version == 0)
        }
    }

    @Test func anEditAppendsItsChangesInOrderAndMovesTheVersion() throws {
        try withDatabase { options in
            let database = try TableDatabase(options: options)
            let incarnation = try #require(try database.create("t", version: 0, json: Array("{}".utf8)))
            let handed = Mutex<[[StoredChange]]>([])
            try database.edit("t", incarnation: incarnation, version: 0) { missed in
                handed.withLock { $0.append(missed) }
                return .changes([change(1), change(2)])
            }
            // Nothing was missed: the optimistic statement committed on the first try.
            #expect(handed.withLock { $0 } == [[]])
            #expect(try database.head(of: "t")?.version == 2)
            let expected = [StoredChange(version: 1, json: change(1)), StoredChange(version: 2, json: change(2))]
            #expect(try database.changes(of: incarnation, after: 0) == expected)
            #expect(try database.changes(of: incarnation, after: 1) == Array(expected.dropFirst()))
            let loaded = try #require(try database.load("t", history: 10))
            #expect(loaded.snapshotVersion == 0)
            #expect(loaded.changes == expected)
            // A no-op writes nothing.
            try database.edit("t", incarnation: incarnation, version: 2) { _ in .nothing }
            #expect(try database.head(of: "t")?.version == 2)
        }
    }

    @Test func anEditOfMoreChangesThanOneStatementTakesIsWrittenWhole() throws {
        try withDatabase { options in
            let database = try TableDatabase(options: options)
            let incarnation = try #require(try database.create("t", version: 0, json: Array("{}".utf8)))
            // PostgreSQL takes at most 65,535 parameters: 2,500 changes go in three statements.
            let count = ChangeInsert.rowsPerStatement * 2 + 500
            try database.edit("t", incarnation: incarnation, version: 0) { _ in .changes((1...count).map(change)) }
            let changes = try database.changes(of: incarnation, after: 0)
            #expect(changes.map(\.version) == Array(1...count))
            #expect(changes.allSatisfy { $0.json == change($0.version) })
            #expect(try database.head(of: "t")?.version == count)
        }
    }

    @Test func aReplicaBehindIsHandedWhatItMissedAndEditsTheLatestVersion() throws {
        try withDatabase { options in
            let a = try TableDatabase(options: options)
            let b = try TableDatabase(options: options)
            let incarnation = try #require(try a.create("t", version: 0, json: Array("{}".utf8)))
            try a.edit("t", incarnation: incarnation, version: 0) { _ in .changes([change(1)]) }
            // b still holds version 0: its first, optimistic try finds the table moved on.
            let handed = Mutex<[[Int]]>([])
            try b.edit("t", incarnation: incarnation, version: 0) { missed in
                handed.withLock { $0.append(missed.map(\.version)) }
                return .changes([change(missed.count + 1)])
            }
            #expect(handed.withLock { $0 } == [[], [1]])
            #expect(try b.changes(of: incarnation, after: 0).map(\.version) == [1, 2])
            #expect(try b.changes(of: incarnation, after: 1).first?.json == change(2))
        }
    }

    /// The `Idempotency-Key` an edit was made under rides in its change record
    /// (docs/FORMAT.md): a replica catching up, and one loading the table at
    /// start-up, read it back byte for byte, so either finds the key before it
    /// makes a retry of that edit.
    @Test func aKeyStoredWithTheChangeIsFoundByAnotherReplica() throws {
        try withDatabase { options in
            let a = try TableDatabase(options: options)
            let b = try TableDatabase(options: options)
            let incarnation = try #require(try a.create("t", version: 0, json: Array(#"{"version":0}"#.utf8)))
            let key = ChangeKey(key: "k-1", digest: "00ff", madeAt: 1_795_000_000)
            let keyed = key.appended(to: change(1))
            try a.edit("t", incarnation: incarnation, version: 0) { _ in .changes([keyed]) }
            // b, behind, retries the edit: it is handed the keyed change first.
            let handed = Mutex<[[UInt8]]>([])
            try b.edit("t", incarnation: incarnation, version: 0) { missed in
                handed.withLock { $0 += missed.map(\.json) }
                return .nothing
            }
            #expect(handed.withLock { $0 } == [keyed])
            #expect(try b.head(of: "t")?.version == 1)
            let loaded = try #require(try TableDatabase(options: options).load("t", history: 100))
            #expect(loaded.changes.map(\.json) == [keyed])
            // As the servers read a stored change back: its version, batch and key.
            let read = try RecordedDecoding.change(from: RecordedDecoding.parser.parse(keyed[...]))
            #expect(read.version == 1 && read.key == key)
        }
    }

    /// Who made a change rides in its record too (docs/ACCESS.md, "Audit"):
    /// another replica reads it back, and a change stored without one (by a
    /// server before audit) still reads, with no actor.
    @Test func theActorStoredWithAChangeIsReadBackAndAChangeWithoutOneStillLoads() throws {
        try withDatabase { options in
            let writer = try TableDatabase(options: options)
            let incarnation = try #require(try writer.create("t", version: 0, json: Array(#"{"version":0}"#.utf8)))
            let named = ChangeActor.appending("ana", to: change(2))
            try writer.edit("t", incarnation: incarnation, version: 0) { _ in .changes([change(1), named]) }
            // Another replica loads the table: the record without an actor and the one with, as written.
            let stored = try #require(try TableDatabase(options: options).load("t", history: 100)).changes
            #expect(stored.map(\.json) == [change(1), named])
            let actors = try stored.map {
                try RecordedDecoding.change(from: RecordedDecoding.parser.parse($0.json[...])).actor
            }
            #expect(actors == [nil, "ana"])
        }
    }

    @Test func theKeyOfACreateOrADeleteOutlivesItsTableAndIsFoundByAnotherReplica() throws {
        try withDatabase { options in
            let a = try TableDatabase(options: options)
            let b = try TableDatabase(options: options)
            let now = 1_795_000_000
            let created = StoredKey(key: "c", digest: "aa", madeAt: now)
            let incarnation = try #require(try a.create("t", version: 0, json: Array("{}".utf8), key: created))
            #expect(try b.storedKey("c") == created)
            #expect(try b.storedKey("d") == nil)
            // The same key again, through another replica: refused, nothing made.
            let taken = #expect(throws: DatabaseError.self) {
                try b.create("u", version: 0, json: Array("{}".utf8), key: created)
            }
            #expect(taken?.kind == .keyTaken)
            #expect(try b.head(of: "u") == nil)
            let deleted = StoredKey(key: "d", digest: "bb", madeAt: now + 1)
            try b.edit("t", incarnation: incarnation, version: 0) { _ in .deletion(deleted) }
            #expect(try a.head(of: "t") == nil)
            // The keys outlive the table's rows; a replica opened later finds them.
            let reopened = try TableDatabase(options: options)
            #expect(try reopened.storedKey("c") == created)
            #expect(try reopened.storedKey("d") == deleted)
            // A keyed deletion whose key is taken deletes nothing.
            let again = try #require(try a.create("t", version: 0, json: Array("{}".utf8)))
            let refused = #expect(throws: DatabaseError.self) {
                try a.edit("t", incarnation: again, version: 0) { _ in .deletion(deleted) }
            }
            #expect(refused?.kind == .keyTaken)
            #expect(try a.head(of: "t")?.incarnation == again)
            // A key written after the others' lifetime drops them, and takes a dropped name.
            let later = StoredKey(key: "c", digest: "cc", madeAt: now + 1 + options.keyLifetime)
            #expect(try a.create("v", version: 0, json: Array("{}".utf8), key: later) != nil)
            #expect(try b.storedKey("c") == later)
            #expect(try b.storedKey("d") == nil)
        }
    }

    @Test func aRefusalOnAnOldVersionIsJudgedAgainOnTheLatest() throws {
        try withDatabase { options in
            let a = try TableDatabase(options: options)
            let b = try TableDatabase(options: options)
            let incarnation = try #require(try a.create("t", version: 0, json: Array("{}".utf8)))
            try a.edit("t", incarnation: incarnation, version: 0) { _ in .changes([change(1)]) }
            struct Refused: Error {}
            let calls = Mutex(0)
            // Refused on b's version 0, made once b sees version 1.
            try b.edit("t", incarnation: incarnation, version: 0) { missed in
                calls.withLock { $0 += 1 }
                guard !missed.isEmpty else { throw Refused() }
                return .changes([change(2)])
            }
            #expect(calls.withLock { $0 } == 2)
            #expect(try b.head(of: "t")?.version == 2)
            // A refusal on the latest version is answered as it is, and writes nothing.
            #expect(throws: Refused.self) {
                try b.edit("t", incarnation: incarnation, version: 2) { _ in throw Refused() }
            }
            #expect(try b.head(of: "t")?.version == 2)
        }
    }

    @Test func editsFromManyThreadsAndReplicasGetConsecutiveVersions() throws {
        try withDatabase { options in
            let replicas = [try TableDatabase(options: options), try TableDatabase(options: options)]
            let incarnation = try #require(try replicas[0].create("t", version: 0, json: Array("{}".utf8)))
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { writer in
                let database = replicas[writer % 2]
                for _ in 0..<10 {
                    do {
                        // Each writer believes the table is at version 0: every
                        // edit after the first is handed what it missed.
                        try database.edit("t", incarnation: incarnation, version: 0) { missed in
                            .changes([change(missed.count + 1)])
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let changes = try replicas[1].changes(of: incarnation, after: 0)
            #expect(changes.map(\.version) == Array(1...80))
            #expect(changes.allSatisfy { $0.json == change($0.version) })
            #expect(try replicas[0].head(of: "t")?.version == 80)
        }
    }

    @Test func snapshotsTrimTheHistoryAndAReplicaTooFarBehindMustReload() throws {
        try withDatabase { options in
            let database = try TableDatabase(options: options)
            let incarnation = try #require(try database.create("t", version: 0, json: Array(#"{"v":0}"#.utf8)))
            for version in 1...10 {
                try database.edit("t", incarnation: incarnation, version: version - 1) { _ in
                    .changes([change(version)])
                }
            }
            try database.storeSnapshot(
                incarnation: incarnation, version: 10, json: Array(#"{"v":10}"#.utf8), history: 4)
            // The snapshot at 10 leaves no change after it; the one at 0 is kept with
            // the changes after it until a newer snapshot leaves 4 changes.
            var loaded = try #require(try database.load("t", history: 4))
            #expect(loaded.snapshotVersion == 0)
            #expect(loaded.changes.count == 10)
            for version in 11...15 {
                try database.edit("t", incarnation: incarnation, version: version - 1) { _ in
                    .changes([change(version)])
                }
            }
            try database.storeSnapshot(
                incarnation: incarnation, version: 15, json: Array(#"{"v":15}"#.utf8), history: 4)
            loaded = try #require(try database.load("t", history: 4))
            #expect(loaded.snapshotVersion == 10)
            #expect(loaded.snapshot == Array(#"{"v":10}"#.utf8))
            #expect(loaded.changes.map(\.version) == Array(11...15))
            // A replica at version 3 lacks changes that are gone: it must load the table again.
            let refusal = #expect(throws: DatabaseError.self) {
                try database.edit("t", incarnation: incarnation, version: 3) { _ in .changes([change(16)]) }
            }
            #expect(refusal?.kind == .historyGone)
            #expect(try database.head(of: "t")?.version == 15)
        }
    }

    @Test func listenersHearOfEachCreationEditAndDeletion() throws {
        try withDatabase { options in
            let database = try TableDatabase(options: options)
            let notices = try database.listen()
            let incarnation = try #require(try database.create("t", version: 0, json: Array("{}".utf8)))
            try database.edit("t", incarnation: incarnation, version: 0) { _ in .changes([change(1), change(2)]) }
            try database.edit("t", incarnation: incarnation, version: 2) { _ in .deletion(nil) }
            var heard: [TableNotice] = []
            let deadline = ContinuousClock.now + .seconds(10)
            while heard.count < 3 && ContinuousClock.now < deadline {
                heard += try notices.next(waitingUpTo: 500)
            }
            // The edit's notice carries its two changes, as they were stored.
            #expect(
                heard == [
                    TableNotice(id: "t", version: -1),
                    TableNotice(id: "t", version: 2, incarnation: incarnation, changes: [change(1), change(2)]),
                    TableNotice(id: "t", version: -1),
                ])
        }
    }

    @Test func aCommitsChangeRowsTellWhetherItWentThrough() throws {
        try withDatabase { options in
            let database = try TableDatabase(options: options)
            let incarnation = try #require(try database.create("t", version: 0, json: Array("{}".utf8)))
            #expect(try database.appendIfCurrent("t", incarnation: incarnation, version: 0, commit: 42, [change(1)]))
            // Not current any more: nothing is written.
            #expect(try !database.appendIfCurrent("t", incarnation: incarnation, version: 0, commit: 43, [change(1)]))
            let found = try database.pool.withConnection { connection in
                (
                    wrote42: try TableDatabase.wrote(42, of: incarnation, on: connection),
                    wrote43: try TableDatabase.wrote(43, of: incarnation, on: connection),
                    exists: try TableDatabase.exists(incarnation, on: connection)
                )
            }
            #expect(found.wrote42 && !found.wrote43 && found.exists)
            // A backend that is gone: its commit is read from the rows it wrote.
            #expect(try database.outcome(of: 0) { try TableDatabase.wrote(42, of: incarnation, on: $0) })
        }
    }
}
