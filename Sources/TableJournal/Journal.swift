import Dispatch
import Synchronization
import TableModel

/// A write-ahead journal of every change to the server's tables, with background
/// snapshots that let it trim itself.
///
/// ```swift
/// let (journal, recovery) = try Journal.open(options)
/// try recovery.replay(into: &store)                 // rebuild the tables
/// journal.start { store.snapshotTables() }          // snapshots from now on
/// let sequence = try journal.append(.delete(tableID: "t"))   // durable per `options.fsync` on return
/// ```
///
/// ## Concurrency
/// Two `Mutex`es, always taken in this order when both are held:
/// - `flusher` serialises flushes and segment rotation; it records how many
///   appended bytes are known to be on the disk. Holding it while flushing lets
///   appenders that arrive meanwhile share the next flush (group commit).
/// - `writer` serialises appends: it numbers each record and writes it, without
///   flushing, so it is held for one `write(2)`.
/// Callers (the store) append while holding their own per-table lock, so the
/// records of one table are in the journal in the order they were applied.
/// Snapshots run on `background`, interval flushes on `ticker`: serial queues.
public final class Journal: Sendable {
    struct Writer: Sendable {
        /// The open segment; nil once the journal is closed.
        var file: JournalFile?
        var segment: Int
        var segmentSize: Int
        var nextSequence: UInt64
        /// Bytes appended since the journal opened, across segments: positions for group commit.
        var appended: UInt64 = 0
        var recordsSinceSnapshot: Int
        var bytesSinceSnapshot: Int
        var snapshotSource: (@Sendable () -> [SnapshotTable])?
        /// The `Idempotency-Key`s of the creates and deletes recorded (or
        /// recovered), oldest first: the next snapshot keeps them, since no
        /// table does (`JournalSnapshot.directoryKeys`).
        var directoryKeys: [ChangeKey] = []
        var snapshotRunning = false
        /// Set when a write could not be undone or a flush failed: the journal takes no more records.
        var failure: JournalError?
    }

    let writer: Mutex<Writer>
    /// Appended bytes known to be on the disk.
    let flusher = Mutex<UInt64>(0)
    let directory: JournalDirectory
    let options: JournalOptions
    let lockFile: JournalFile
    let report: @Sendable (JournalNotice) -> Void
    /// Runs snapshots, one at a time.
    let background = DispatchQueue(label: "webtableview.journal.snapshots")
    /// Runs `.interval` flushes, so a long snapshot does not delay them.
    let ticker = DispatchQueue(label: "webtableview.journal.flush")

    /// Opens (creating when missing) and recovers the journal in `options.directory`,
    /// and starts a new segment for the records to come. Replay the recovery into
    /// the store, then call `start(snapshotSource:)`.
    public static func open(
        _ options: JournalOptions, report: @escaping @Sendable (JournalNotice) -> Void = { _ in }
    ) throws(JournalError) -> (journal: Journal, recovery: JournalRecovery) {
        let directory = JournalDirectory(path: options.directory)
        try JournalFile.makeDirectory(options.directory)
        let lockFile = try JournalFile.lock(directory.lockPath)
        do throws(JournalError) {
            let (recovery, nextSegment) = try JournalReader(directory: directory).recover()
            let file = try createSegment(nextSegment, in: directory)
            let writer = Writer(
                file: file, segment: nextSegment, segmentSize: JournalFrame.segmentMagic.count,
                nextSequence: recovery.lastSequence + 1,
                recordsSinceSnapshot: recovery.records.count, bytesSinceSnapshot: recovery.recordBytes,
                directoryKeys: JournalDirectoryKeys.recovered(recovery))
            let journal = Journal(
                writer: writer, directory: directory, options: options, lockFile: lockFile, report: report)
            return (journal, recovery)
        } catch {
            lockFile.close()
            throw error
        }
    }

    /// What the journal in `directory` holds, read without changing any file
    /// and without taking its lock: for tools (`webtableview audit`) that read
    /// a journal a server may be writing. Records appended meanwhile may be
    /// missing, or the last one torn (left out, with a warning).
    public static func read(directory path: String) throws(JournalError) -> JournalRecovery {
        try JournalReader(directory: JournalDirectory(path: path), repairs: false).recover().recovery
    }

    private init(
        writer: Writer, directory: JournalDirectory, options: JournalOptions, lockFile: JournalFile,
        report: @escaping @Sendable (JournalNotice) -> Void
    ) {
        self.writer = Mutex(writer)
        self.directory = directory
        self.options = options
        self.lockFile = lockFile
        self.report = report
    }

    /// Appends `entry` and, with `.always`, waits until it is on the disk. Answers
    /// the record's sequence number. When this throws, the record is not in the
    /// journal (a partly written frame is cut off again).
    @discardableResult
    public func append(_ entry: JournalEntry) throws(JournalError) -> UInt64 {
        let prepared = try JournalFrame.Prepared(payload: entry.payload)
        let (sequence, position, snapshotDue) = try writer.withLock { (state) throws(JournalError) in
            guard let file = state.file else { throw Self.closed }
            if let failure = state.failure { throw failure }
            let frame = prepared.sealed(sequence: state.nextSequence)
            do throws(JournalError) {
                try file.write(frame)
            } catch {
                do throws(JournalError) {
                    try file.truncate(to: state.segmentSize)
                } catch {
                    state.failure = JournalError(.unavailable, "journal damaged by a failed write: \(error.message)")
                }
                throw error
            }
            state.nextSequence += 1
            state.segmentSize += frame.count
            state.appended += UInt64(frame.count)
            state.recordsSinceSnapshot += 1
            state.bytesSinceSnapshot += frame.count
            if let key = entry.directoryKey { state.directoryKeys.append(key) }
            return (state.nextSequence - 1, state.appended, claimSnapshot(&state))
        }
        if options.fsync == .always { try flush(upTo: position) }
        if snapshotDue { background.async { self.takeSnapshot() } }
        return sequence
    }

    /// Flushes until at least `position` appended bytes are on the disk, sharing a
    /// flush with every appender that got there first.
    func flush(upTo position: UInt64) throws(JournalError) {
        try flusher.withLock { (flushed) throws(JournalError) in
            guard flushed < position else { return }
            let (file, appended) = try writer.withLock { (state) throws(JournalError) in
                guard let file = state.file else { throw Self.closed }
                if let failure = state.failure { throw failure }
                return (file, state.appended)
            }
            do throws(JournalError) {
                try file.sync()
            } catch {
                // After a failed fsync the kernel may have dropped the dirty pages: trust nothing more.
                writer.withLock { $0.failure = JournalError(.unavailable, "journal flush failed: \(error.message)") }
                throw error
            }
            flushed = appended
        }
    }

    /// Begins background work: snapshots from `snapshotSource` (every table with
    /// the sequence number of its last record) and, with `.interval`, periodic flushes.
    public func start(snapshotSource: @escaping @Sendable () -> [SnapshotTable]) {
        let due = writer.withLock { state in
            state.snapshotSource = snapshotSource
            return claimSnapshot(&state)
        }
        if due { background.async { self.takeSnapshot() } }
        if options.fsync == .interval { scheduleIntervalFlush() }
    }

    /// Waits for a running snapshot, flushes what is appended, and closes the
    /// files; later appends throw. Call after the last request is answered.
    /// Forgets the snapshot source, so a store that holds the journal is released.
    public func close() {
        background.sync {}
        let appended = writer.withLock { $0.appended }
        do throws(JournalError) {
            try flush(upTo: appended)
        } catch {
            report(JournalNotice(.error, "journal: final flush failed: \(error.message)"))
        }
        flusher.withLock { _ in
            writer.withLock { state in
                state.file?.close()
                state.file = nil
                state.snapshotSource = nil
            }
        }
        lockFile.close()
    }

    static let closed = JournalError(.unavailable, "the journal is closed")

    /// Creates segment `number` with its magic, flushed, and flushes the directory entry.
    static func createSegment(_ number: Int, in directory: JournalDirectory) throws(JournalError) -> JournalFile {
        let file = try JournalFile.create(directory.segmentPath(number))
        do throws(JournalError) {
            try file.write(JournalFrame.segmentMagic)
            try file.sync()
            try JournalFile.syncDirectory(directory.path)
        } catch {
            file.close()
            try? JournalFile.remove(file.path)
            throw error
        }
        return file
    }
}
