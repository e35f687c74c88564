import Foundation
import TableModel
import Testing
@testable import TableJournal

/// Records come back as written; damage is dropped only when it is a torn tail.
@Suite struct JournalRecoveryTests {
    /// Writes a create, a change, a PATCH and a delete, and answers the records.
    func writeFourRecords(_ directory: String) throws -> [JournalRecord] {
        var table = journalTable("t")
        let records: [JournalRecord] = [
            .create(table),
            .changes(
                tableID: "t",
                [
                    JournalChange(
                        version: 1,
                        batch: try table.apply(
                            Batch(insertRows: [.init(at: TableIndexPath(0, 1), row: Row(text: "N"))])))
                ]),
            .changes(
                tableID: "t",
                [
                    JournalChange(
                        version: 2,
                        batch: try table.apply(
                            Batch(properties: TableProperties(title: .some("T"), header: .some(nil)))))
                ]),
            .delete(tableID: "t"),
        ]
        let (journal, recovery) = try openJournal(journalOptions(directory))
        #expect(recovery.isEmpty)
        for record in records { try journal.append(JournalEntry(record)) }
        journal.close()
        return records
    }

    @Test func theKeysOfCreatesAndDeletesComeBackAndASnapshotKeepsTheYoungOnes() throws {
        try withJournalDirectory { directory in
            let now = Int(Date().timeIntervalSince1970)
            let created = ChangeKey(key: "c", digest: "aa", madeAt: now)
            let deleted = ChangeKey(key: "d", digest: "bb", madeAt: now)
            let old = ChangeKey(key: "old", digest: "cc", madeAt: now - ChangeKey.lifetime - 1)
            let records: [JournalRecord] = [
                .delete(tableID: "u", key: old), .create(journalTable("t"), key: created),
                .delete(tableID: "t", key: deleted),
            ]
            do {
                let (journal, _) = try openJournal(journalOptions(directory))
                for record in records { try journal.append(JournalEntry(record)) }
                journal.close()
            }
            do {
                let (journal, recovery) = try openJournal(journalOptions(directory))
                #expect(recovery.records.map(\.record) == records)
                // No table is left: the snapshot alone keeps the keys.
                journal.start { [] }
                try journal.snapshot()
                journal.close()
            }
            let (journal, recovery) = try openJournal(journalOptions(directory))
            defer { journal.close() }
            #expect(recovery.records.isEmpty && recovery.snapshotTables.isEmpty)
            #expect(recovery.snapshotDirectoryKeys == [created, deleted])
            // A key in a snapshot and in a record after it is kept once, as the latest.
            #expect(JournalDirectoryKeys.kept([created, old, deleted, created], now: now) == [deleted, created])
        }
    }

    @Test func recordsComeBackAsWritten() throws {
        try withJournalDirectory { directory in
            let records = try writeFourRecords(directory)
            let (journal, recovery) = try openJournal(journalOptions(directory))
            defer { journal.close() }
            #expect(recovery.records.map(\.record) == records)
            #expect(recovery.records.map(\.sequence) == [1, 2, 3, 4])
            #expect(recovery.warnings.isEmpty)
            #expect(!recovery.isEmpty)
        }
    }

    @Test(arguments: [1, 9, 17])
    func aTornTailIsDroppedWithAWarning(cut: Int) throws {
        try withJournalDirectory { directory in
            let records = try writeFourRecords(directory)
            let segment = try lastSegment(in: directory)
            try editFile(segment) { $0.removeLast(cut) }
            do {
                let (journal, recovery) = try openJournal(journalOptions(directory))
                #expect(recovery.records.map(\.record) == Array(records.prefix(3)))
                #expect(recovery.warnings.count == 1)
                #expect(recovery.warnings.first?.contains("torn") == true)
                // The journal goes on after the last intact record, in a new segment.
                #expect(try journal.append(.delete(tableID: "t")) == 4)
                journal.close()
            }
            let (journal, recovery) = try openJournal(journalOptions(directory))
            defer { journal.close() }
            #expect(recovery.records.map(\.record) == Array(records.prefix(3)) + [.delete(tableID: "t")])
            #expect(recovery.warnings.isEmpty)
        }
    }

    @Test func aZeroFilledTailIsDropped() throws {
        try withJournalDirectory { directory in
            let records = try writeFourRecords(directory)
            try editFile(try lastSegment(in: directory)) { $0 += [UInt8](repeating: 0, count: 4096) }
            let (journal, recovery) = try openJournal(journalOptions(directory))
            defer { journal.close() }
            #expect(recovery.records.map(\.record) == records)
            #expect(recovery.warnings.count == 1)
        }
    }

    @Test func aBadChecksumAtTheTailIsDropped() throws {
        try withJournalDirectory { directory in
            let records = try writeFourRecords(directory)
            try editFile(try lastSegment(in: directory)) { $0[$0.count - 3] ^= 0x20 }
            let (journal, recovery) = try openJournal(journalOptions(directory))
            defer { journal.close() }
            #expect(recovery.records.map(\.record) == Array(records.prefix(3)))
            #expect(recovery.warnings.first?.contains("checksum mismatch") == true)
        }
    }

    /// Damage with intact records after it is not a torn write: acknowledged
    /// changes would be lost, so start-up refuses and names the place.
    @Test(arguments: ["payload", "length"])
    func damageInTheMiddleRefusesToStart(field: String) throws {
        try withJournalDirectory { directory in
            _ = try writeFourRecords(directory)
            let segment = try lastSegment(in: directory)
            let second = try secondRecordOffset(segment)
            try editFile(segment) { bytes in
                if field == "payload" { bytes[second + 20] ^= 0x01 } else { bytes[second + 3] = 0x7F }
            }
            let error = try #require(throws: JournalError.self) { try openJournal(journalOptions(directory)) }
            #expect(error.kind == .damaged)
            #expect(error.message.contains("at byte \(second)"))
            #expect(error.message.contains("intact records follow"))
        }
    }

    @Test func damageInAnEarlierSegmentRefusesToStart() throws {
        try withJournalDirectory { directory in
            _ = try writeFourRecords(directory)
            let first = try lastSegment(in: directory)
            do {
                let (journal, _) = try openJournal(journalOptions(directory))
                try journal.append(.create(journalTable("u")))
                journal.close()
            }
            try editFile(first) { $0.removeLast(1) }
            let error = try #require(throws: JournalError.self) { try openJournal(journalOptions(directory)) }
            #expect(error.kind == .damaged)
            #expect(error.message.contains("a later segment follows"))
        }
    }

    @Test func changesThatSkipAVersionAreRefused() throws {
        try withJournalDirectory { directory in
            var table = journalTable("t")
            let first = try table.apply(Batch(deleteRows: [TableIndexPath(0, 0)]))
            let third = try table.apply(Batch(deleteRows: [TableIndexPath(0, 0)]))
            do {
                let (journal, _) = try openJournal(journalOptions(directory))
                try journal.append(.create(journalTable("t")))
                try journal.append(JournalEntry(.changes(tableID: "t", [JournalChange(version: 1, batch: first)])))
                try journal.append(JournalEntry(.changes(tableID: "t", [JournalChange(version: 3, batch: third)])))
                journal.close()
            }
            let (journal, recovery) = try openJournal(journalOptions(directory))
            defer { journal.close() }
            let error = try #require(throws: JournalError.self) { try replayed(recovery) }
            #expect(error.kind == .inconsistent)
            #expect(error.message.contains("version 3 after version 1"))
        }
    }

    @Test func aSecondServerCannotOpenTheSameJournal() throws {
        try withJournalDirectory { directory in
            let (journal, _) = try openJournal(journalOptions(directory))
            defer { journal.close() }
            let error = try #require(throws: JournalError.self) { try Journal.open(journalOptions(directory)) }
            #expect(error.kind == .inUse)
        }
    }

    @Test func checksumIsCRC32() {
        var whole = CRC32()
        whole.update(Array("123456789".utf8))
        #expect(whole.value == 0xCBF4_3926)
        var split = CRC32()
        split.update(Array("1234".utf8))
        split.update(Array("123456789".utf8)[4...])
        #expect(split.value == 0xCBF4_3926)
        var long = CRC32()
        long.update([UInt8](repeating: 0, count: 32))
        #expect(long.value == 0x190A_55AD)
    }

    /// A crash while a segment was being created leaves it empty or short.
    @Test(arguments: [0, 5])
    func aSegmentCutShortAtCreationIsRewritten(length: Int) throws {
        try withJournalDirectory { directory in
            let records = try writeFourRecords(directory)
            let cut = directory + "/segment-0000000002.wtj"
            #expect(FileManager.default.createFile(atPath: cut, contents: Data("WTVJRNL1".utf8.prefix(length))))
            for _ in 0..<2 {
                let (journal, recovery) = try openJournal(journalOptions(directory))
                #expect(recovery.records.map(\.record) == records)
                journal.close()
            }
        }
    }

    /// The byte offset of the second record in a segment.
    func secondRecordOffset(_ path: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let first = JournalFrame.segmentMagic.count
        return first + JournalFrame.headerSize + Int(bytes.loadLittleEndian(UInt32.self, at: first))
    }
}
